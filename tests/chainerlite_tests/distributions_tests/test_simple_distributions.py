"""Exponential, Geometric, LogNormal, Pareto and Uniform against formulas."""

import math

import numpy
import pytest

import chainerlite as chainer
from chainerlite import distributions as D
from chainerlite import gradient_check

A = numpy.array([0.5, 1.5, 3.0])
B = numpy.array([2.0, 1.0, 0.8])


def _close(v, expected, **kw):
    numpy.testing.assert_allclose(chainer.as_array(v), expected, **kw)


def test_exponential():
    d = D.Exponential(A)
    x = numpy.array([0.2, 1.0, 3.0])
    _close(d.log_prob(x), numpy.log(A) - A * x)
    _close(d.log_prob(-x), [-numpy.inf] * 3)
    _close(d.cdf(x), 1 - numpy.exp(-A * x))
    _close(d.icdf(d.cdf(x)), x)
    _close(d.mean, 1 / A)
    _close(d.variance, 1 / A**2)
    _close(d.entropy, 1 - numpy.log(A))
    _close(chainer.kl_divergence(d, D.Exponential(B)), numpy.log(A / B) + B / A - 1)
    numpy.random.seed(0)
    _close(d.sample(20000).array.mean(0), 1 / A, rtol=0.05)
    gradient_check.check_backward(
        lambda lam: D.Exponential(lam).log_prob(x), A, numpy.ones(3)
    )


def test_geometric():
    p = numpy.array([0.2, 0.5, 0.7])
    q = p[::-1].copy()
    d = D.Geometric(p)
    x = numpy.array([1.0, 3.0, 2.0])
    _close(d.log_prob(x), (x - 1) * numpy.log(1 - p) + numpy.log(p))
    _close(d.mean, 1 / p)
    _close(d.variance, (1 - p) / p**2)
    ks = numpy.arange(1, 400)[:, None]
    pmf = (1 - p) ** (ks - 1) * p
    _close(d.entropy, -(pmf * numpy.log(pmf)).sum(0))
    pmf_q = (1 - q) ** (ks - 1) * q
    _close(
        chainer.kl_divergence(d, D.Geometric(q)), (pmf * numpy.log(pmf / pmf_q)).sum(0)
    )
    numpy.random.seed(0)
    smp = d.sample(20000).array
    assert smp.min() >= 1
    _close(smp.mean(0), 1 / p, rtol=0.05)
    gradient_check.check_backward(
        lambda v: D.Geometric(v).log_prob(x), p, numpy.ones(3)
    )


def test_log_normal():
    d = D.LogNormal(A - 1, B)
    x = numpy.array([0.5, 1.0, 4.0])
    z = (numpy.log(x) - (A - 1)) / B
    _close(d.log_prob(x), -numpy.log(x * B * math.sqrt(2 * math.pi)) - 0.5 * z**2)
    _close(d.mean, numpy.exp(A - 1 + B**2 / 2))
    _close(d.variance, (numpy.exp(B**2) - 1) * numpy.exp(2 * (A - 1) + B**2))
    _close(d.entropy, A - 1 + 0.5 + numpy.log(B * math.sqrt(2 * math.pi)))
    kl = chainer.kl_divergence(d, D.LogNormal(A, B[::-1].copy()))
    kl_normal = chainer.kl_divergence(D.Normal(A - 1, B), D.Normal(A, B[::-1].copy()))
    _close(kl, kl_normal.array)
    numpy.random.seed(0)
    _close(numpy.median(d.sample(20000).array, 0), numpy.exp(A - 1), rtol=0.05)


def test_pareto():
    scale, alpha = B, A + 2
    d = D.Pareto(scale, alpha)
    x = numpy.array([2.5, 1.5, 1.0])
    _close(
        d.log_prob(x),
        numpy.log(alpha) + alpha * numpy.log(scale) - (alpha + 1) * numpy.log(x),
    )
    _close(d.log_prob(scale / 2), [-numpy.inf] * 3)
    _close(d.mean, alpha * scale / (alpha - 1))
    _close(d.variance, scale**2 * alpha / ((alpha - 1) ** 2 * (alpha - 2)))
    _close(d.entropy, numpy.log(scale / alpha) + 1 / alpha + 1)
    _close(D.Pareto(B, numpy.array([0.5, 1.0, 1.5])).mean[:2], [numpy.inf] * 2)
    numpy.random.seed(0)
    smp = d.sample(40000).array
    assert (smp >= scale).all()
    _close(numpy.median(smp, 0), scale * 2 ** (1 / alpha), rtol=0.05)
    q = D.Pareto(scale / 2, alpha[::-1].copy())
    mc = (d.log_prob(smp).array - q.log_prob(smp).array).mean(0)
    _close(chainer.kl_divergence(d, q), mc, rtol=0.05)
    _close(chainer.kl_divergence(q, d), [numpy.inf] * 3)


def test_uniform():
    low, high = -A, B
    d = D.Uniform(low=low, high=high)
    d2 = D.Uniform(loc=low, scale=high - low)
    x = numpy.array([0.0, 0.5, 5.0])
    _close(d.log_prob(x), [-numpy.log(2.5), -numpy.log(2.5), -numpy.inf])
    _close(d2.log_prob(x), d.log_prob(x).array)
    _close(d.cdf(x), numpy.clip((x - low) / (high - low), 0, 1))
    _close(d.mean, (low + high) / 2)
    _close(d.variance, (high - low) ** 2 / 12)
    _close(d.entropy, numpy.log(high - low))
    wide = D.Uniform(low=low - 1, high=high + 1)
    _close(chainer.kl_divergence(d, wide), numpy.log((high - low + 2) / (high - low)))
    _close(chainer.kl_divergence(wide, d), [numpy.inf] * 3)
    numpy.random.seed(0)
    smp = d.sample(10000).array
    assert ((smp >= low) & (smp <= high)).all()
    with pytest.raises(ValueError, match='Uniform'):
        D.Uniform(low=low, scale=high)


def test_cauchy():
    loc, scale = A - 1, B
    d = D.Cauchy(loc, scale)
    x = numpy.array([0.3, -1.0, 2.0])
    z = (x - loc) / scale
    _close(d.log_prob(x), -numpy.log(math.pi * scale * (1 + z**2)))
    _close(d.cdf(x), 0.5 + numpy.arctan(z) / math.pi)
    _close(d.icdf(d.cdf(x)), x)
    _close(d.entropy, numpy.log(4 * math.pi * scale))
    with pytest.warns(RuntimeWarning):
        assert numpy.isnan(d.mean.array).all()
    with pytest.warns(RuntimeWarning):
        assert numpy.isnan(d.variance.array).all()
    numpy.random.seed(0)
    _close(numpy.median(d.sample(20000).array, 0), loc, atol=0.1)
    gradient_check.check_backward(
        lambda m, s: D.Cauchy(m, s).log_prob(x), (loc, scale), numpy.ones(3)
    )


def test_independent_normal():
    loc = numpy.random.RandomState(0).normal(size=(2, 3))
    scale = numpy.exp(numpy.random.RandomState(1).normal(size=(2, 3)))
    base = D.Normal(loc, scale)
    d = D.Independent(base)
    assert d.batch_shape == (2,) and d.event_shape == (3,)
    x = numpy.zeros((4, 2, 3))
    _close(d.log_prob(x), base.log_prob(x).array.sum(-1))
    _close(d.entropy, base.entropy.array.sum(-1))
    _close(d.cdf(x[0]), base.cdf(x[0]).array.prod(-1))
    cov = d.covariance.array
    assert cov.shape == (2, 3, 3)
    _close(cov[:, [0, 1, 2], [0, 1, 2]], scale**2)
    assert d.sample(5).shape == (5, 2, 3)
    other = D.Independent(D.Normal(loc + 1, scale))
    _close(
        chainer.kl_divergence(d, other),
        chainer.kl_divergence(base, other.distribution).array.sum(-1),
    )
    assert D.Independent(base, 0).event_shape == ()
    with pytest.raises(ValueError, match='Independent'):
        D.Independent(base, 3)


def test_independent_wraps_read_only():
    # Chainer 7.8.1: distribution and reinterpreted_batch_ndims are
    # properties without a setter (found by the differential harness)
    normal = D.Normal(
        numpy.zeros((2, 3), numpy.float32), numpy.ones((2, 3), numpy.float32)
    )
    ind = D.Independent(normal)
    assert ind.distribution is normal and ind.reinterpreted_batch_ndims == 1
    assert (ind.batch_shape, ind.event_shape) == ((2,), (3,))
    with pytest.raises(AttributeError):
        ind.distribution = normal
