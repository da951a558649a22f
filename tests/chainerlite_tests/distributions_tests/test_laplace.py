import numpy

import chainerlite as chainer
from chainerlite import distributions as D
from chainerlite.distributions import laplace
from chainerlite import gradient_check

LOC = numpy.array([-0.5, 0.0, 1.0])
SCALE = numpy.array([0.5, 1.0, 2.0])


def test_log_prob_cdf_icdf_moments():
    dist = D.Laplace(LOC, SCALE)
    x = numpy.array([0.3, -1.0, 1.0])
    numpy.testing.assert_allclose(
        dist.log_prob(x).array, -numpy.log(2 * SCALE) - numpy.abs(x - LOC) / SCALE
    )
    z = (x - LOC) / SCALE
    cdf = numpy.where(z < 0, 0.5 * numpy.exp(z), 1 - 0.5 * numpy.exp(-z))
    numpy.testing.assert_allclose(dist.cdf(x).array, cdf)
    numpy.testing.assert_allclose(dist.icdf(cdf).array, x)
    numpy.testing.assert_allclose(dist.entropy.array, 1 + numpy.log(2 * SCALE))
    numpy.testing.assert_allclose(dist.variance.array, 2 * SCALE**2)
    numpy.testing.assert_allclose(dist.stddev.array, numpy.sqrt(2) * SCALE)
    numpy.testing.assert_allclose(dist.mean.array, LOC)


def test_sample_statistics():
    numpy.random.seed(0)
    smp = D.Laplace(LOC, SCALE).sample((20000,)).array
    numpy.testing.assert_allclose(smp.mean(0), LOC, atol=0.1)
    numpy.testing.assert_allclose(smp.var(0), 2 * SCALE**2, rtol=0.1)


def test_standard_cdf_icdf_backward():
    x = numpy.array([-1.5, -0.2, 0.4, 2.0])
    gy = numpy.array([1.0, -0.5, 0.3, 2.0])
    gradient_check.check_backward(laplace._laplace_cdf, x, gy)
    u = numpy.array([0.1, 0.3, 0.6, 0.95])
    gradient_check.check_backward(laplace._laplace_icdf, u, gy)


def test_log_prob_backward():
    x = numpy.array([0.3, -1.0, 1.5])
    gy = numpy.array([1.0, 0.5, -2.0])
    gradient_check.check_backward(
        lambda m, s: D.Laplace(m, s).log_prob(x), (LOC, SCALE), gy
    )


def test_kl():
    loc2, scale2 = LOC[::-1].copy(), SCALE[::-1].copy()
    kl = chainer.kl_divergence(D.Laplace(LOC, SCALE), D.Laplace(loc2, scale2)).array
    d = numpy.abs(LOC - loc2)
    expected = (
        numpy.log(scale2 / SCALE)
        + d / scale2
        + SCALE / scale2 * numpy.exp(-d / SCALE)
        - 1
    )
    numpy.testing.assert_allclose(kl, expected)
