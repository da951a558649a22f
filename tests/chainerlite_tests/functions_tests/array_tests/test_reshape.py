import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.utils import type_check


@pytest.mark.parametrize(
    'in_shape, out_shape',
    [
        ((2, 3), (6,)),
        ((2, 3), (3, -1)),
        ((4, 3, 2), (2, 3, 4)),
        ((1,), ()),
        ((), (1, 1)),
    ],
)
def test_forward_backward_double_backward(in_shape, out_shape):
    x = numpy.random.uniform(-1, 1, in_shape)
    y = F.reshape(x, out_shape)
    expected = x.reshape(out_shape)
    assert y.shape == expected.shape
    numpy.testing.assert_array_equal(y.array, expected)
    gy = numpy.random.uniform(-1, 1, expected.shape)
    ggx = numpy.random.uniform(-1, 1, in_shape)

    def f(x):
        return F.reshape(x, out_shape)

    gradient_check.check_backward(f, x, gy)
    gradient_check.check_double_backward(f, x, gy, ggx)


def test_zero_size():
    y = F.reshape(numpy.zeros((0, 3), numpy.float32), (3, -1))
    assert y.shape == (3, 0)


def test_variable_reshape_method():
    x = chainerlite.Variable(numpy.arange(6, dtype=numpy.float32))
    assert x.reshape(2, 3).shape == (2, 3)
    assert x.reshape((3, 2)).shape == (3, 2)


def test_same_shape_returns_input_variable():
    x = chainerlite.Variable(numpy.zeros((2, 3), numpy.float32))
    assert F.reshape(x, (2, 3)) is x


def test_two_unknown_dimensions():
    with pytest.raises(ValueError):
        F.reshape(numpy.zeros(6, numpy.float32), (-1, -1))


@pytest.mark.parametrize('out_shape', [(4,), (4, -1), (2, 2)])
def test_invalid_sizes(out_shape):
    with pytest.raises(type_check.InvalidType, match='Reshape'):
        F.reshape(numpy.zeros((2, 3), numpy.float32), out_shape)
