import numpy
import pytest

import chainerlite
import chainerlite.links as L
from chainerlite import gradient_check


def _x(*shape):
    # away from the kink at 0, where the numerical gradient is unreliable
    sign = numpy.random.choice([-1, 1], shape)
    x = numpy.random.uniform(0.1, 1, shape) * sign
    return x.astype(numpy.float32)


def test_default_slope():
    link = L.PReLU()
    assert link.W.shape == () and link.W.dtype == numpy.float32
    assert float(link.W.array) == 0.25
    x = _x(3, 4)
    expected = numpy.where(x >= 0, x, 0.25 * x)
    numpy.testing.assert_allclose(link(x).array, expected)


@pytest.mark.parametrize('shape, broadcast', [((3,), (1, 3, 1)), ((3, 2), (1, 3, 2))])
def test_slope_per_channel(shape, broadcast):
    link = L.PReLU(shape=shape, init=0.5)
    numpy.testing.assert_array_equal(link.W.array, numpy.full(shape, 0.5))
    link.W.array[...] = numpy.random.uniform(-1, 1, shape)
    x = _x(4, 3, 2)
    expected = numpy.where(x >= 0, x, link.W.array.reshape(broadcast) * x)
    numpy.testing.assert_allclose(link(x).array, expected, rtol=1e-6)


def test_parameter_gradient():
    link = L.PReLU(shape=(3,))
    gradient_check.check_backward(
        link,
        _x(4, 3, 2),
        _x(4, 3, 2),
        params=(link.W,),
        dtype=numpy.float64,
        atol=1e-4,
        rtol=1e-3,
    )


def test_dtype_follows_config():
    with chainerlite.using_config('dtype', numpy.float64):
        link = L.PReLU()
    assert link.W.dtype == numpy.float64
