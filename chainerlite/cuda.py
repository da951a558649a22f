"""Old alias of :mod:`chainerlite.backends.cuda`, as in Chainer."""
import sys

from chainerlite.backends import cuda as _cuda

sys.modules[__name__] = _cuda
