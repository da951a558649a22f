"""The compiled activation kernels (``chainerlite._kernels.act``),
through the functions' CPU paths, against NumPy references of their
formulas; ``math.erfc`` gives the normal distribution of the references."""

import math

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check

_erfc = np.vectorize(math.erfc)


def _phi(x):
    return _erfc(-x / math.sqrt(2)) / 2


def _expected(name, x, gy):
    """(forward, gradient) of each function at x, in float64."""
    x, gy = x.astype(np.float64), gy.astype(np.float64)
    if name == 'leaky_relu':
        # at 0 the slope, as Chainer
        return np.where(x > 0, x, 0.3 * x), gy * np.where(x > 0, 1, 0.3)
    if name == 'softplus':
        s = 1 / (1 + np.exp(-2 * x))
        return np.logaddexp(0, 2 * x) / 2, gy * s
    pdf = np.exp(-x * x / 2) / math.sqrt(2 * math.pi)
    return x * _phi(x), gy * (_phi(x) + x * pdf)


FUNCTIONS = {
    'leaky_relu': lambda x: F.leaky_relu(x, 0.3),
    'softplus': lambda x: F.softplus(x, 2.0),
    'gelu': F.gelu,
}


@pytest.mark.parametrize('name', sorted(FUNCTIONS))
@pytest.mark.parametrize('dtype,tol', [(np.float32, 1e-6), (np.float64, 1e-13)])
def test_forward_and_grad_match_reference(name, dtype, tol):
    rng = np.random.RandomState(1)
    x = rng.uniform(-6, 6, (3, 5, 4)).astype(dtype)
    x[0, 0, :2] = [0, -0.0]
    xv = chainerlite.Variable(x[:, ::2])  # a strided input
    y = FUNCTIONS[name](xv)
    # a broadcast (not contiguous) output gradient, as sum's backward gives
    gy = np.broadcast_to(rng.uniform(-1, 1, (1,) + y.shape[1:]).astype(dtype), y.shape)
    y.grad = gy
    y.backward()
    fwd, grad = _expected(name, x[:, ::2], gy)
    assert y.dtype == dtype and xv.grad.dtype == dtype
    np.testing.assert_allclose(y.array, fwd, rtol=tol, atol=tol)
    np.testing.assert_allclose(xv.grad, grad, rtol=tol, atol=tol)


def test_normal_cdf_left_tail_keeps_relative_precision():
    x = np.array([-30.0, -10.0, 0.0, 10.0])
    y = F.gelu(x).array
    np.testing.assert_allclose(y, x * _phi(x), rtol=1e-12)
    assert y[0] != 0


@pytest.mark.parametrize('name', sorted(FUNCTIONS))
def test_check_backward(name):
    rng = np.random.RandomState(2)
    x = rng.uniform(-2, 2, (2, 3)) + 0.1
    gy = rng.uniform(-1, 1, (2, 3))
    gradient_check.check_backward(FUNCTIONS[name], x, gy, dtype=np.float64)
