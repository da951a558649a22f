"""utils.array: as_vec, as_mat, empty_like and sum_to's identity case."""

import numpy
import pytest

import chainerlite
from chainerlite import utils
from chainerlite.utils import array


def test_sum_to_the_same_shape_returns_the_array_itself():
    x = numpy.ones((2, 3), numpy.float32)
    assert array.sum_to(x, (2, 3)) is x
    assert utils.sum_to is array.sum_to


def _deprecated(fn, *args):
    # Chainer 7.8.1 deprecates as_vec, as_mat and empty_like
    with pytest.warns(DeprecationWarning, match='chainer.utils.array.* is deprecated'):
        return fn(*args)


def test_as_vec():
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    v = _deprecated(array.as_vec, x)
    numpy.testing.assert_array_equal(v, numpy.arange(6))
    assert numpy.shares_memory(v, x)
    one_d = numpy.ones(3)
    assert _deprecated(array.as_vec, one_d) is one_d
    assert _deprecated(array.as_vec, numpy.float32(2) * numpy.ones(())).shape == (1,)


def test_as_mat():
    x = numpy.arange(24, dtype=numpy.float32).reshape(2, 3, 4)
    m = _deprecated(array.as_mat, x)
    numpy.testing.assert_array_equal(m, x.reshape(2, 12))
    two_d = numpy.ones((2, 5))
    assert _deprecated(array.as_mat, two_d) is two_d
    assert _deprecated(array.as_mat, numpy.ones(3)).shape == (3, 1)


def test_empty_like_keeps_shape_dtype_and_order():
    x = numpy.ones((3, 2), numpy.float16).T
    y = _deprecated(array.empty_like, x)
    assert y.shape == (2, 3)
    assert y.dtype == numpy.float16
    assert y.flags.f_contiguous
    assert not numpy.shares_memory(x, y)


def test_sum_to_refuses_a_variable():
    x = chainerlite.Variable(numpy.ones((2, 3), numpy.float32))
    with pytest.raises(TypeError, match='functions.sum_to'):
        array.sum_to(x, (3,))
    # one of the target shape is returned as it is, as in Chainer
    assert array.sum_to(x, (2, 3)) is x


def test_conv_outsize_helpers_at_utils():
    assert utils.get_conv_outsize(5, 3, 1, 0) == 3
    assert utils.get_deconv_outsize(3, 3, 1, 0) == 5
