"""Exporters of computational graphs to other frameworks' formats."""

from chainerlite.exporters import caffe  # NOQA
