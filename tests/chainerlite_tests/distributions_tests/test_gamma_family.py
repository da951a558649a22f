"""Distributions built on log-gamma (they need SciPy on the CPU, as in
Chainer); references are scipy.stats, or formulas with math.lgamma."""

import math

import numpy
import pytest

import chainerlite as chainer
from chainerlite import distributions as D
from chainerlite import gradient_check

stats = pytest.importorskip('scipy.stats')

A = numpy.array([0.7, 2.0, 5.0])
B = numpy.array([3.0, 1.5, 0.9])


def _close(v, expected, **kw):
    kw.setdefault('rtol', 1e-6)
    numpy.testing.assert_allclose(chainer.as_array(v), expected, **kw)


def _mc_kl(p, q, n=200000):
    numpy.random.seed(0)
    smp = p.sample(n).array
    return (p.log_prob(smp).array - q.log_prob(smp).array).mean(0)


def test_gamma():
    d = D.Gamma(A, B)
    ref = stats.gamma(A, scale=B)
    x = numpy.array([0.5, 2.0, 4.0])
    _close(d.log_prob(x), ref.logpdf(x))
    _close(d.entropy, ref.entropy())
    _close(d.mean, ref.mean())
    _close(d.variance, ref.var())
    q = D.Gamma(B, A)
    _close(chainer.kl_divergence(d, q), _mc_kl(d, q), rtol=2e-2, atol=2e-2)
    gradient_check.check_backward(
        lambda k, t: D.Gamma(k, t).log_prob(x),
        (A, B),
        numpy.ones(3),
        atol=1e-4,
        rtol=1e-4,
    )


def test_chisquare():
    d = D.Chisquare(A * 2)
    ref = stats.chi2(A * 2)
    x = numpy.array([0.5, 2.0, 4.0])
    _close(d.log_prob(x), ref.logpdf(x))
    _close(d.entropy, ref.entropy())
    _close(d.mean, ref.mean())
    _close(d.variance, ref.var())
    numpy.random.seed(0)
    numpy.testing.assert_allclose(d.sample(20000).array.mean(0), A * 2, rtol=0.05)


def test_beta():
    d = D.Beta(A, B)
    ref = stats.beta(A, B)
    x = numpy.array([0.2, 0.5, 0.9])
    _close(d.log_prob(x), ref.logpdf(x))
    _close(d.entropy, ref.entropy())
    _close(d.mean, ref.mean())
    _close(d.variance, ref.var())
    q = D.Beta(B, A)
    _close(chainer.kl_divergence(d, q), _mc_kl(d, q), rtol=2e-2, atol=2e-2)
    gradient_check.check_backward(
        lambda a, b: D.Beta(a, b).log_prob(x),
        (A, B),
        numpy.ones(3),
        atol=1e-4,
        rtol=1e-4,
    )


def test_dirichlet():
    alpha = numpy.array([[0.7, 2.0, 5.0], [3.0, 1.5, 0.9]])
    d = D.Dirichlet(alpha)
    assert d.batch_shape == (2,) and d.event_shape == (3,)
    x = numpy.array([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]])
    _close(d.log_prob(x), [stats.dirichlet(a).logpdf(v) for a, v in zip(alpha, x)])
    _close(d.entropy, [stats.dirichlet(a).entropy() for a in alpha])
    _close(d.mean, [stats.dirichlet(a).mean() for a in alpha])
    _close(d.variance, [stats.dirichlet(a).var() for a in alpha])
    q = D.Dirichlet(alpha[::-1].copy())
    _close(chainer.kl_divergence(d, q), _mc_kl(d, q), rtol=2e-2, atol=3e-2)


def test_gumbel():
    d = D.Gumbel(A - 1, B)
    ref = stats.gumbel_r(A - 1, B)
    x = numpy.array([0.5, 2.0, -1.0])
    _close(d.log_prob(x), ref.logpdf(x))
    _close(d.cdf(x), ref.cdf(x))
    _close(d.entropy, ref.entropy())
    _close(d.mean, ref.mean())
    _close(d.variance, ref.var())
    q = D.Gumbel(A, B[::-1].copy())
    _close(chainer.kl_divergence(d, q), _mc_kl(d, q), rtol=2e-2, atol=2e-2)


def test_gumbel_log_cdf_stays_finite_far_below_the_location():
    # exp(-exp(z)) underflows in float32 for z > 4.5 or so; log_cdf is -exp(z)
    loc = numpy.array([1.6744436, 0.0], numpy.float32)
    scale = numpy.array([0.80684733, 1.0], numpy.float32)
    x = numpy.array([-2.7498202, 1.0], numpy.float32)
    got = D.Gumbel(loc, scale).log_cdf(x).array
    z = (x.astype(numpy.float64) - loc) / scale
    numpy.testing.assert_allclose(got, -numpy.exp(-z), rtol=1e-5)
    assert got.dtype == numpy.float32 and numpy.isfinite(got).all()


def test_poisson():
    d = D.Poisson(A)
    x = numpy.array([0.0, 2.0, 7.0])
    _close(d.log_prob(x), x * numpy.log(A) - A - numpy.vectorize(math.lgamma)(x + 1))
    q = D.Poisson(B)
    _close(chainer.kl_divergence(d, q), _mc_kl(d, q), rtol=2e-2, atol=2e-2)
