import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape', [(), (3,), (2, 3)])
def test_exp_forward(dtype, shape):
    x = numpy.random.uniform(-1, 1, shape).astype(dtype)
    y = F.exp(x)
    assert isinstance(y, chainerlite.Variable)
    assert y.dtype == dtype
    assert y.shape == shape
    numpy.testing.assert_allclose(y.array, numpy.exp(x), rtol=1e-3)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape', [(), (3,), (2, 3)])
def test_log_forward(dtype, shape):
    x = numpy.random.uniform(0.5, 2, shape).astype(dtype)
    y = F.log(x)
    assert isinstance(y.array, numpy.ndarray)
    assert y.dtype == dtype
    numpy.testing.assert_allclose(y.array, numpy.log(x), rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize('func', [F.exp, F.log])
def test_backward(func):
    x = numpy.random.uniform(0.5, 2, (3, 4))
    gy = numpy.random.uniform(-1, 1, (3, 4))
    gradient_check.check_backward(func, x, gy)


@pytest.mark.parametrize('func', [F.exp, F.log])
def test_double_backward(func):
    x = numpy.random.uniform(0.5, 2, (3, 4))
    gy = numpy.random.uniform(-1, 1, (3, 4))
    ggx = numpy.random.uniform(-1, 1, (3, 4))
    gradient_check.check_double_backward(func, x, gy, ggx)


@pytest.mark.parametrize('func, label', [(F.exp, 'exp'), (F.log, 'log')])
def test_integer_input_is_invalid(func, label):
    with pytest.raises(type_check.InvalidType, match=label):
        func(numpy.arange(3, dtype=numpy.int32))
