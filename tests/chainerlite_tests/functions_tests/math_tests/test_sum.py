import numpy
import pytest

import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.utils import type_check

SHAPE = (2, 3, 4)


@pytest.mark.parametrize('axis', [None, 0, 1, 2, -1, (0, 2), (-1, 0), ()])
@pytest.mark.parametrize('keepdims', [False, True])
def test_forward(axis, keepdims):
    x = numpy.random.uniform(-1, 1, SHAPE).astype(numpy.float32)
    y = F.sum(x, axis=axis, keepdims=keepdims)
    expected = x.sum(axis=axis, keepdims=keepdims)
    assert y.dtype == numpy.float32
    assert y.shape == expected.shape
    assert isinstance(y.array, numpy.ndarray)
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5)


@pytest.mark.parametrize('axis', [None, 1, -1, (0, 2), (-1, 0)])
@pytest.mark.parametrize('keepdims', [False, True])
def test_backward_and_double_backward(axis, keepdims):
    x = numpy.random.uniform(-1, 1, SHAPE)
    gy_shape = x.sum(axis=axis, keepdims=keepdims).shape
    gy = numpy.random.uniform(-1, 1, gy_shape)
    ggx = numpy.random.uniform(-1, 1, SHAPE)

    def f(x):
        return F.sum(x, axis=axis, keepdims=keepdims)

    gradient_check.check_backward(f, x, gy)
    gradient_check.check_double_backward(f, x, gy, ggx)


def test_duplicate_axis():
    with pytest.raises(ValueError, match='duplicate'):
        F.sum(numpy.zeros(SHAPE, numpy.float32), axis=(1, -2))


@pytest.mark.parametrize('axis', [1.5, [0, 1], (0, 'a')])
def test_invalid_axis_type(axis):
    with pytest.raises(TypeError):
        F.sum(numpy.zeros(SHAPE, numpy.float32), axis=axis)


@pytest.mark.parametrize('axis', [3, -4, (0, 3)])
def test_axis_out_of_range(axis):
    with pytest.raises(type_check.InvalidType, match='Sum'):
        F.sum(numpy.zeros(SHAPE, numpy.float32), axis=axis)


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType):
        F.sum(numpy.zeros(SHAPE, numpy.int32))
