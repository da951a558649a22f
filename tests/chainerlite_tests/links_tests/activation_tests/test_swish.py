import numpy
import pytest

import chainerlite.links as L
from chainerlite import gradient_check
from chainerlite.utils import type_check


def _swish(x, beta):
    return x / (1 + numpy.exp(-beta * x))


def _x(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


def test_initial_value_and_shared_beta():
    link = L.Swish((), beta_init=0.5)
    assert link.beta.shape == () and link.beta.dtype == numpy.float32
    assert float(link.beta.array) == 0.5
    x = _x(4, 3)
    numpy.testing.assert_allclose(link(x).array, _swish(x, 0.5), rtol=1e-5)


def test_beta_per_channel():
    link = L.Swish((3,))
    numpy.testing.assert_array_equal(link.beta.array, numpy.ones(3))
    link.beta.array[...] = numpy.random.uniform(-1, 1, 3)
    x = _x(2, 3, 5)
    expected = _swish(x, link.beta.array.reshape(1, 3, 1))
    numpy.testing.assert_allclose(link(x).array, expected, rtol=1e-5)


def test_lazy_beta_takes_the_shape_of_one_sample():
    link = L.Swish(None, beta_init=2.0)
    assert link.beta.array is None
    x = _x(4, 3, 2)
    y = link(x)
    assert link.beta.shape == (3, 2)
    numpy.testing.assert_allclose(y.array, _swish(x, 2.0), rtol=1e-5)


@pytest.mark.parametrize('beta_shape', [(), None])
def test_gradients(beta_shape):
    link = L.Swish(beta_shape)
    x = _x(3, 2)
    link(x)
    link.beta.array[...] = numpy.random.uniform(-1, 1, link.beta.shape)
    gradient_check.check_backward(link, x, _x(3, 2), link.beta, atol=1e-3, rtol=1e-3)


def test_beta_must_line_up_with_the_input():
    with pytest.raises(type_check.InvalidType, match='Swish'):
        L.Swish((4,))(_x(2, 3))
