"""Chainer's ``chainer.utils._collections``: the ordered dictionary its
code keys by objects (on Python 3, ``collections.OrderedDict`` itself)."""

import collections

OrderedDict = collections.OrderedDict
