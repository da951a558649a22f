"""Caffe model support: :class:`CaffeFunction` reads ``.caffemodel`` files."""

from chainerlite.links.caffe.caffe_function import CaffeFunction  # NOQA
