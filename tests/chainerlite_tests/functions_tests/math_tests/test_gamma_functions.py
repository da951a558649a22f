"""F.lgamma, F.digamma and F.polygamma (SciPy on the CPU, as in Chainer)."""

import math

import numpy
import pytest

import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.utils import type_check

try:
    import scipy  # NOQA

    _have_scipy = True
except ImportError:
    _have_scipy = False

needs_scipy = pytest.mark.skipif(not _have_scipy, reason='needs SciPy')
X = numpy.array([[0.3, 1.0, 2.5], [4.0, 7.2, 10.0]])


def _lgamma_ref(x):
    return numpy.vectorize(math.lgamma)(x)


def _derivative(f, x, h=1e-5):
    return (f(x + h) - f(x - h)) / (2 * h)


@needs_scipy
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_lgamma_digamma_polygamma_forward(dtype):
    x = X.astype(dtype)
    rtol = 1e-5 if dtype == numpy.float32 else 1e-7
    y = F.lgamma(x)
    assert y.dtype == dtype
    numpy.testing.assert_allclose(y.array, _lgamma_ref(X), rtol=rtol)
    psi = _derivative(_lgamma_ref, X)
    numpy.testing.assert_allclose(F.digamma(x).array, psi, rtol=1e-5)
    n = numpy.zeros(X.shape, numpy.int32)
    numpy.testing.assert_allclose(F.polygamma(n, x).array, psi, rtol=1e-5)
    k = numpy.arange(100000.0)[:, None, None]
    trigamma = (1 / (X + k) ** 2).sum(0) + 1 / (X + 100000.0)
    numpy.testing.assert_allclose(F.polygamma(n + 1, x).array, trigamma, rtol=1e-4)


@needs_scipy
def test_backward_and_double_backward():
    gy = numpy.full(X.shape, 0.7)
    ggx = numpy.full(X.shape, -0.3)
    for f in (F.lgamma, F.digamma):
        gradient_check.check_backward(f, X, gy, atol=1e-4, rtol=1e-4)
        gradient_check.check_double_backward(f, X, gy, ggx, atol=1e-3, rtol=1e-3)
    n = numpy.ones(X.shape, numpy.int32)
    gradient_check.check_backward(
        lambda x: F.polygamma(n, x), X, gy, atol=1e-4, rtol=1e-4
    )


@pytest.mark.skipif(_have_scipy, reason='SciPy is installed')
@pytest.mark.parametrize('name', ['lgamma', 'digamma'])
def test_cpu_needs_scipy(name):
    with pytest.raises(ImportError, match=name):
        getattr(F, name)(X)


def test_bad_dtypes():
    with pytest.raises(type_check.InvalidType, match='lgamma'):
        F.lgamma(numpy.arange(3))
    with pytest.raises(type_check.InvalidType, match='digamma'):
        F.digamma(numpy.arange(3))
    with pytest.raises(type_check.InvalidType, match='polygamma'):
        F.polygamma(numpy.ones(3), X[0])
