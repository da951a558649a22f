"""The one-pass ReLU loops of ``chainerlite._kernels.relu`` give NumPy's
results bit for bit (``maximum(x, 0)`` and ``gy * (y > 0)``), through
``F.relu`` and directly, and decline what they do not handle."""

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite._kernels import relu as relu_kernels

FLOATS = [np.float32, np.float64]
SPECIAL = [
    np.nan,
    -np.nan,
    np.inf,
    -np.inf,
    0.0,
    -0.0,
    1e-45,
    -1e-45,
    1e-310,
    -1e-310,
    3.0,
    -3.0,
]


def _bits_equal(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(
        np.ascontiguousarray(a).view(np.uint8), np.ascontiguousarray(b).view(np.uint8)
    )


def _numpy_relu(x):
    # NumPy's vector loops give +0 for -0; NaN keeps its bits
    return np.where(x == 0, np.zeros((), x.dtype), np.maximum(x, np.zeros((), x.dtype)))


@pytest.mark.parametrize('n', [0, 1, 3, 7, 8, 9, 15, 16, 17, 31, 33, 63, 65, 1000])
@pytest.mark.parametrize('dtype', FLOATS)
def test_relu_matches_numpy_every_tail(n, dtype):
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n).astype(dtype)
    x[::5] = np.resize(np.array(SPECIAL, dtype), x[::5].shape)
    guard = np.full(n + 16, 7.0, dtype)  # the loop writes nothing past n
    y = guard[:n]
    y[...] = relu_kernels.relu(x)
    _bits_equal(y, _numpy_relu(x))
    assert (guard[n:] == 7.0).all()


@pytest.mark.parametrize('dtype', FLOATS)
def test_relu_special_values(dtype):
    x = np.array(SPECIAL, dtype)
    y = relu_kernels.relu(x)
    assert np.isnan(y[0]) and np.isnan(y[1])
    np.testing.assert_array_equal(y[2:], np.maximum(x[2:], 0))
    assert not np.signbit(y[5])  # -0 gives +0, as NumPy's vector loops


@pytest.mark.parametrize('dtype', FLOATS)
def test_relu_grad_matches_numpy(dtype):
    rng = np.random.default_rng(1)
    y = np.maximum(rng.standard_normal(1001), 0).astype(dtype)
    gy = rng.standard_normal(1001).astype(dtype)
    gy[:6] = [np.inf, -np.inf, np.nan, 0.0, -0.0, 1.0]
    y[:6] = 0.0  # non-finite gradients where y is 0 give NaN, as in NumPy
    gy[6:9] = [np.inf, np.nan, -0.0]
    y[6:9] = 2.0
    with np.errstate(invalid='ignore'):
        expected = gy * (y > 0)
    _bits_equal(relu_kernels.relu_grad(y, gy), expected)


@pytest.mark.parametrize('order', ['C', 'F'])
def test_layouts_kept(order):
    x = np.asarray(
        np.random.default_rng(2).standard_normal((5, 7)), np.float32, order=order
    )
    y = relu_kernels.relu(x)
    assert y.flags[order + '_CONTIGUOUS']
    _bits_equal(y, _numpy_relu(x))
    g = np.asarray(np.ones((5, 7)), np.float32, order=order)
    gx = relu_kernels.relu_grad(y, g)
    assert gx.flags[order + '_CONTIGUOUS']
    _bits_equal(gx, g * (y > 0))


def test_declines_what_it_does_not_handle():
    x = np.arange(-6, 6, dtype=np.float32).reshape(3, 4)
    assert relu_kernels.relu(x[:, ::2]) is None  # strided
    assert relu_kernels.relu(x.astype(np.float16)) is None
    assert relu_kernels.relu(x.astype(np.int32)) is None
    assert relu_kernels.relu([1.0, -1.0]) is None
    assert relu_kernels.relu(x.view(np.matrix)) is None  # a subclass
    y = np.maximum(x, 0)
    assert relu_kernels.relu_grad(y, x.astype(np.float64)) is None
    assert relu_kernels.relu_grad(y, x.reshape(4, 3)) is None
    assert relu_kernels.relu_grad(y, np.asfortranarray(x)) is None
    assert relu_kernels.relu_grad(y, x[:, ::-1]) is None


@pytest.mark.parametrize('dtype', FLOATS + [np.float16])
@pytest.mark.parametrize('order', ['C', 'F', 'strided'])
def test_F_relu_forward_and_backward(dtype, order):
    rng = np.random.default_rng(3)
    base = rng.uniform(-1, 1, (6, 10)).astype(dtype)
    base[np.abs(base) < 0.05] = 0.5  # away from the kink
    x = {'C': base, 'F': np.asfortranarray(base), 'strided': base[:, ::2]}[order]
    v = chainerlite.Variable(x)
    y = F.relu(v)
    np.testing.assert_array_equal(y.array, np.maximum(x, 0))
    gy = rng.standard_normal(x.shape).astype(dtype)
    y.grad = gy
    y.backward()
    np.testing.assert_array_equal(v.grad, gy * (x > 0))
    tol = {'atol': 1e-2, 'rtol': 1e-2} if dtype == np.float16 else {}
    gradient_check.check_backward(F.relu, x, gy, dtype=np.float64, **tol)
