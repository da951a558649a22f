"""chainerlite.types: the names of Chainer's types module."""

import typing

import numpy

from chainerlite import initializers
from chainerlite import types


def test_type_checking_flag_and_initializer_protocol():
    assert types.TYPE_CHECKING is typing.TYPE_CHECKING
    # the protocol declares dtype (None: whatever the array has), as Chainer's
    assert types.AbstractInitializer.dtype is None
    assert isinstance(initializers.Constant(1.0), types.AbstractInitializer)
    assert not isinstance(numpy.zeros(1), types.AbstractInitializer)
