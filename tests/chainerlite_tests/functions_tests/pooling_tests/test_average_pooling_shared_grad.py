"""Average pooling that leaves out the padding (``pad_value=None``) must not
change the gradient it receives: that array may be the gradient of other
inputs too. (Chainer 7.8.1's CPU backward divides it in place, so the other
inputs of an addition get it divided by the window sizes; chainercv2's
NASNet, which adds pooled and unpooled branches, showed it. See
docs/differences.rst.)"""

import numpy
import pytest

import chainerlite as chainer
import chainerlite.functions as F


def _pool(x):
    return F.average_pooling_nd(x, 3, 1, 1, pad_value=None)


@pytest.mark.parametrize('ndim', [2, 3])
def test_other_input_of_an_addition_gets_the_gradient_unchanged(ndim):
    rng = numpy.random.RandomState(0)
    shape = (1, 2) + (5,) * ndim
    a = chainer.Variable(rng.randn(*shape))
    b = chainer.Variable(rng.randn(*shape))
    y = _pool(a) + b
    gy = rng.randn(*shape)
    y.grad = gy.copy()
    y.backward()
    numpy.testing.assert_array_equal(b.grad, gy)


@pytest.mark.parametrize('ndim', [2, 3])
def test_two_poolings_of_one_input_add_their_gradients(ndim):
    rng = numpy.random.RandomState(1)
    x = chainer.Variable(rng.randn(*((1, 2) + (5,) * ndim)))
    gy = rng.randn(*x.shape)
    y = _pool(x)
    y.grad = gy.copy()
    y.backward()
    once = x.grad.copy()
    x.cleargrad()
    y = _pool(x) + _pool(x)
    y.grad = gy.copy()
    y.backward()
    numpy.testing.assert_allclose(x.grad, 2 * once, rtol=1e-15)
