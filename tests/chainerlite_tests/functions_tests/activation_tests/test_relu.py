import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.utils import type_check


def _away_from_zero(shape, dtype=numpy.float64):
    x = numpy.random.uniform(-1, 1, shape)
    x[numpy.abs(x) < 0.1] = 0.5
    return x.astype(dtype)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape', [(), (3,), (3, 2)])
def test_forward(dtype, shape):
    x = _away_from_zero(shape, dtype)
    y = F.relu(x)
    assert y.dtype == dtype
    assert isinstance(y.array, numpy.ndarray)
    numpy.testing.assert_array_equal(y.array, numpy.maximum(x, 0))


@pytest.mark.parametrize('shape', [(), (3,), (3, 2)])
def test_backward_and_double_backward(shape):
    x = _away_from_zero(shape)
    gy = numpy.random.uniform(-1, 1, shape)
    ggx = numpy.random.uniform(-1, 1, shape)
    gradient_check.check_backward(F.relu, x, gy)
    gradient_check.check_double_backward(F.relu, x, gy, ggx)


def test_gradient_is_masked_by_sign():
    x = chainerlite.Variable(numpy.array([-2.0, -0.5, 0.5, 2.0], numpy.float32))
    y = F.relu(x)
    y.grad = numpy.ones(4, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [0, 0, 1, 1])


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match='ReLU'):
        F.relu(numpy.arange(3, dtype=numpy.int32))
