"""Distributions with 0-d parameters and points, with Chainer 7.8.1's values
(found by the differential harness, tools/diff_chainer: arithmetic on 0-d
arrays gives NumPy scalars, which functions refuse)."""

import importlib.util

import numpy
import pytest

from chainerlite import distributions as D


def f32(value):
    return numpy.asarray(numpy.float32(value))


NEEDS_SCIPY = pytest.mark.skipif(
    importlib.util.find_spec('scipy') is None, reason='SciPy is not installed'
)


@pytest.mark.parametrize(
    ('dist', 'x', 'expected'),
    [
        # Beta and Poisson's log_prob use lgamma, which computes with SciPy
        pytest.param(
            lambda: D.Beta(a=f32(2), b=f32(3)), f32(0.5), 0.40546513, marks=NEEDS_SCIPY
        ),
        pytest.param(
            lambda: D.Poisson(lam=f32(2)), f32(3), -1.712318, marks=NEEDS_SCIPY
        ),
        (lambda: D.Pareto(scale=f32(2), alpha=f32(3)), f32(3), -1.2163954),
    ],
)
def test_log_prob_of_0d(dist, x, expected):
    y = dist().log_prob(x)
    assert y.shape == () and y.dtype == numpy.float32
    assert float(y.array) == pytest.approx(expected, rel=1e-6)


@pytest.mark.parametrize(
    ('alpha', 'mean', 'variance'), [(3, 3.0, 3.0), (1.5, 6.0, numpy.inf)]
)
def test_pareto_moments_of_0d(alpha, mean, variance):
    d = D.Pareto(scale=f32(2), alpha=f32(alpha))
    assert d.mean.shape == () and float(d.mean.array) == pytest.approx(mean)
    assert float(d.variance.array) == pytest.approx(variance)


def test_zero_dim_and_scalar_values_of_the_methods():
    # arithmetic on a 0-d array gives a NumPy scalar: each method takes
    # it, and a Python or NumPy scalar where Chainer's does
    u = numpy.array(0.3, numpy.float32)
    cauchy = D.Cauchy(numpy.array(0.2, numpy.float32), numpy.array(0.7, numpy.float32))
    numpy.testing.assert_allclose(
        cauchy.icdf(u).array, 0.2 + 0.7 * numpy.tan(numpy.pi * (0.3 - 0.5)), rtol=1e-5
    )
    exponential = D.Exponential(numpy.array(0.5, numpy.float32))
    numpy.testing.assert_allclose(exponential.icdf(u).array, -numpy.log1p(-0.3) / 0.5)
    for x in (0.6, numpy.float32(0.6), numpy.array(0.6, numpy.float32)):
        logp = exponential.log_prob(x)
        assert logp.shape == () and logp.dtype == numpy.float32
        numpy.testing.assert_allclose(logp.array, numpy.log(0.5) - 0.3, rtol=1e-6)


@NEEDS_SCIPY  # Poisson's log_prob uses lgamma, which computes with SciPy
def test_poisson_log_prob_of_a_numpy_scalar():
    poisson = D.Poisson(numpy.array(2.0, numpy.float32))
    numpy.testing.assert_allclose(
        poisson.log_prob(numpy.int32(2)).array, 2 * numpy.log(2.0) - 2 - numpy.log(2.0)
    )
