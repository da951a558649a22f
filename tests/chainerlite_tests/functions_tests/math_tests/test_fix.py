import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite.backends import cuda
from chainerlite.testing import attr


def _check(xp, dtype):
    x = xp.asarray([[-2.7, -0.5, 0.0], [0.4, 1.0, 3.9]], dtype)
    y = F.fix(chainerlite.Variable(x))
    assert y.dtype == dtype and y.creator is None
    expected = numpy.array([[-2.0, 0.0, 0.0], [0.0, 1.0, 3.0]], dtype)
    numpy.testing.assert_array_equal(cuda.to_cpu(y.array), expected)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_rounds_toward_zero(dtype):
    _check(numpy, dtype)


@attr.gpu
def test_rounds_toward_zero_on_gpu():
    _check(cuda.cupy, numpy.float32)


def test_zero_dim_and_no_gradient():
    x = chainerlite.Variable(numpy.array(-3.5, numpy.float32))
    y = F.fix(x)
    assert y.shape == () and y.array == -3.0
    assert not y.requires_grad
