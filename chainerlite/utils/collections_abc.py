"""``collections.abc``, at Chainer's ``chainer.utils.collections_abc``."""

from collections.abc import *  # NOQA
