"""The vectorised tanh of ``chainerlite._kernels.vec_math`` (libmvec's AVX2
versions where the machine has them), through ``F.tanh``, against tanh
computed in higher precision: accuracy, special values, layouts."""

import re

import numpy as np
import pytest

import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite._kernels import vec_math

vector = pytest.mark.skipif(
    not vec_math.vec_math_available(), reason='no libmvec AVX2 tanh here'
)


def _ulps(y, x):
    # distance of y from tanh(x) computed in long double, in units in the
    # last place of y's dtype
    ref = np.tanh(x.astype(np.longdouble))
    spacing = np.spacing(np.abs(ref).astype(y.dtype)).astype(np.longdouble)
    return np.abs(y.astype(np.longdouble) - ref) / spacing


def _wide_range(n, dtype, seed=0):
    # magnitudes from 1e-9 to ~20 (past saturation), both signs
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(n) * np.exp(rng.uniform(-20, 3, n))).astype(dtype)


# the module's promise (PRECISION: '1 ulp float32, 3 ulp float64')
_PROMISED = [
    (np.dtype(name).type, int(ulps))
    for ulps, name in re.findall(r'(\d+) ulp (float\d+)', vec_math.PRECISION)
]


def _as_promised(y, x, max_ulps):
    # NumPy's tanh (Chainer's result to the bit) where it is the one chosen
    # (AVX-512), else libmvec's within its promise
    if vec_math.numpy_tanh_chosen():
        return np.array_equal(y, np.tanh(x))
    return _ulps(y, x).max() <= max_ulps


@pytest.mark.parametrize('dtype, max_ulps', _PROMISED)
def test_tanh_accuracy(dtype, max_ulps):
    x = _wide_range(100_003, dtype)  # not a multiple of the vector width
    y = F.tanh(x).array
    assert y.dtype == dtype and y.shape == x.shape
    assert _as_promised(y, x, max_ulps)


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_tanh_special_values(dtype):
    x = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 30.0, -30.0], dtype)
    y = F.tanh(x).array
    assert np.isnan(y[0])
    np.testing.assert_array_equal(y[1:], [1, -1, 0, 0, 1, -1])
    assert not np.signbit(y[3]) and np.signbit(y[4])


@pytest.mark.parametrize('n', [0, 1, 7, 8, 9, 15, 17, 33])
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_tanh_tails(n, dtype):
    # every length of the last partial vector, and the arrays around it
    # left untouched (the tail goes through a padded copy)
    buf = np.full(n + 16, 7.0, dtype)
    x = buf[8 : 8 + n]
    x[:] = np.linspace(-3, 3, n)
    y = F.tanh(x).array
    np.testing.assert_allclose(y, np.tanh(x.astype(np.float64)), rtol=1e-6)
    assert (buf[:8] == 7).all() and (buf[8 + n :] == 7).all()


@pytest.mark.parametrize(
    'make',
    [
        lambda a: a[:, ::2],  # strided
        lambda a: a.T,  # Fortran order
        lambda a: a[3],  # 1-d view into the middle
        lambda a: a[0:1, 0].reshape(()),  # 0-d
    ],
)
def test_tanh_layouts(make):
    x = make(_wide_range(12 * 10, np.float32).reshape(12, 10))
    y = F.tanh(x).array
    assert y.shape == x.shape and y.dtype == x.dtype
    assert _as_promised(y, x, 1)


def test_tanh_big_endian_input():
    x = _wide_range(50, np.float64).astype('>f8')
    y = F.tanh(x).array
    np.testing.assert_allclose(y, np.tanh(x), rtol=1e-15)


@vector
def test_tanh_matches_numpy_within_two_ulps():
    # the vector path replaces NumPy's loop: the two agree to rounding
    x = _wide_range(4096, np.float32, seed=3)
    y = F.tanh(x).array
    diff = np.abs(y.astype(np.float64) - np.tanh(x))
    assert (diff <= 2 * np.spacing(np.abs(np.tanh(x)))).all()


@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_tanh_backward(dtype):
    x = np.random.default_rng(1).uniform(-2, 2, (3, 5)).astype(dtype)
    gy = np.random.default_rng(2).standard_normal((3, 5)).astype(dtype)
    ggx = np.random.default_rng(3).standard_normal((3, 5)).astype(dtype)
    tol = dict(atol=1e-3, rtol=1e-3) if dtype == np.float32 else {}
    gradient_check.check_backward(F.tanh, x, gy, dtype=np.float64, **tol)
    gradient_check.check_double_backward(F.tanh, x, gy, ggx, dtype=np.float64, **tol)
