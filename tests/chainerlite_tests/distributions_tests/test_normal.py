import math

import numpy
import pytest

import chainerlite as chainer
from chainerlite import distributions as D
from chainerlite import gradient_check


def _params(shape=(2, 3)):
    rng = numpy.random.RandomState(0)
    loc = rng.uniform(-1, 1, shape).astype(numpy.float64)
    scale = numpy.exp(rng.uniform(-1, 1, shape)).astype(numpy.float64)
    return loc, scale


def test_log_prob_cdf_entropy_match_formulas():
    loc, scale = _params()
    dist = D.Normal(loc, scale)
    x = numpy.linspace(-2, 2, 6).reshape(2, 3)
    z = (x - loc) / scale
    logpdf = -0.5 * z**2 - numpy.log(scale) - 0.5 * math.log(2 * math.pi)
    numpy.testing.assert_allclose(dist.log_prob(x).array, logpdf)
    numpy.testing.assert_allclose(dist.prob(x).array, numpy.exp(logpdf))
    cdf = 0.5 * (1 + numpy.vectorize(math.erf)(z / math.sqrt(2)))
    numpy.testing.assert_allclose(dist.cdf(x).array, cdf)
    numpy.testing.assert_allclose(dist.survival_function(x).array, 1 - cdf)
    numpy.testing.assert_allclose(dist.log_cdf(x).array, numpy.log(cdf))
    numpy.testing.assert_allclose(
        dist.entropy.array, 0.5 * numpy.log(2 * math.pi * math.e * scale**2)
    )
    numpy.testing.assert_allclose(dist.variance.array, scale**2)
    numpy.testing.assert_allclose(dist.stddev.array, scale)
    assert dist.batch_shape == (2, 3) and dist.event_shape == ()
    assert dist.support == 'real'


def test_log_scale_is_equivalent():
    loc, scale = _params()
    a = D.Normal(loc, scale=scale)
    b = D.Normal(loc, log_scale=numpy.log(scale))
    numpy.testing.assert_allclose(b.scale.array, scale)
    numpy.testing.assert_allclose(a.log_prob(loc).array, b.log_prob(loc).array)


def test_sample_statistics():
    numpy.random.seed(0)
    loc, scale = _params((2,))
    smp = D.Normal(loc, scale).sample((20000,)).array
    assert smp.shape == (20000, 2)
    numpy.testing.assert_allclose(smp.mean(0), loc, atol=0.05)
    numpy.testing.assert_allclose(smp.std(0), scale, rtol=0.05)


def test_log_prob_backward():
    loc, scale = _params((3,))
    x = numpy.array([0.1, -0.3, 0.7])
    gy = numpy.random.RandomState(1).normal(size=3)
    gradient_check.check_backward(
        lambda m, s: D.Normal(m, s).log_prob(x), (loc, scale), gy, atol=1e-4, rtol=1e-4
    )


def test_kl_matches_closed_form():
    loc1, scale1 = _params((3,))
    loc2, scale2 = loc1[::-1].copy(), scale1[::-1].copy()
    kl = chainer.kl_divergence(D.Normal(loc1, scale1), D.Normal(loc2, scale2))
    expected = (
        numpy.log(scale2 / scale1)
        + (scale1**2 + (loc1 - loc2) ** 2) / (2 * scale2**2)
        - 0.5
    )
    numpy.testing.assert_allclose(kl.array, expected)


def test_scale_and_log_scale_are_exclusive():
    with pytest.raises(ValueError, match='Normal'):
        D.Normal(numpy.zeros(2), scale=numpy.ones(2), log_scale=numpy.ones(2))
    with pytest.raises(ValueError, match='Normal'):
        D.Normal(numpy.zeros(2))


def test_icdf_inverts_cdf():
    pytest.importorskip('scipy')
    loc, scale = _params()
    dist = D.Normal(loc, scale)
    p = numpy.linspace(0.05, 0.95, 6).reshape(2, 3)
    x = dist.icdf(p)
    numpy.testing.assert_allclose(dist.cdf(x).array, p, rtol=1e-12)
    gradient_check.check_backward(
        lambda loc, scale: D.Normal(loc, scale).icdf(p),
        (loc, scale),
        numpy.ones((2, 3)),
    )


def test_icdf_needs_scipy_on_the_cpu():
    try:
        import scipy  # NOQA

        pytest.skip('SciPy is installed')
    except ImportError:
        pass
    loc, scale = _params()
    with pytest.raises(ImportError, match='ndtri'):
        D.Normal(loc, scale).icdf(numpy.full((2, 3), 0.5))


def test_survival_function_keeps_the_upper_tail():
    dist = D.Normal(numpy.zeros(1), numpy.ones(1))
    numpy.testing.assert_allclose(
        dist.survival_function(numpy.array([10.0])).array,
        [7.619853024160527e-24],
        rtol=1e-14,
    )
