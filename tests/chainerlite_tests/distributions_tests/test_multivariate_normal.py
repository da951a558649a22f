import math

import numpy
import pytest

import chainerlite as chainer
from chainerlite import distributions as D
from chainerlite.distributions import multivariate_normal
from chainerlite import gradient_check


def _params(batch=(2,), d=3, seed=0):
    rng = numpy.random.RandomState(seed)
    loc = rng.uniform(-1, 1, batch + (d,))
    a = rng.normal(size=batch + (d, d))
    cov = a @ numpy.swapaxes(a, -1, -2) + numpy.eye(d)
    return loc, numpy.linalg.cholesky(cov), cov


def test_shapes_entropy_covariance_without_scipy():
    loc, tril, cov = _params()
    d = D.MultivariateNormal(loc, scale_tril=tril)
    assert d.batch_shape == (2,) and d.event_shape == (3,)
    numpy.testing.assert_allclose(d.covariance.array, cov)
    expected = 0.5 * numpy.log(numpy.linalg.det(2 * math.pi * math.e * cov))
    numpy.testing.assert_allclose(d.entropy.array, expected)
    numpy.random.seed(0)
    smp = d.sample(20000).array
    assert smp.shape == (20000, 2, 3)
    numpy.testing.assert_allclose(smp.mean(0), loc, atol=0.1)
    emp = numpy.einsum('nbi,nbj->bij', smp - loc, smp - loc) / 20000
    numpy.testing.assert_allclose(emp, cov, rtol=0.1, atol=0.1)


def test_scale_tril_is_required():
    with pytest.raises(ValueError, match='scale_tril'):
        D.MultivariateNormal(numpy.zeros(3))


def test_triangular_inv_needs_scipy_when_missing():
    try:
        import scipy  # NOQA
    except ImportError:
        with pytest.raises(ImportError, match='SciPy'):
            multivariate_normal._triangular_inv(numpy.eye(3))
    else:
        pytest.skip('SciPy is installed')


def test_log_prob_kl_and_triangular_inv_with_scipy():
    pytest.importorskip('scipy')
    loc, tril, cov = _params()
    d = D.MultivariateNormal(loc, scale_tril=tril)
    x = numpy.random.RandomState(3).normal(size=(4, 2, 3))
    diff = x - loc
    maha = numpy.einsum('nbi,bij,nbj->nb', diff, numpy.linalg.inv(cov), diff)
    expected = -0.5 * (maha + numpy.log(numpy.linalg.det(2 * math.pi * cov)))
    numpy.testing.assert_allclose(d.log_prob(x).array, expected)
    loc2, tril2, cov2 = _params(seed=1)
    inv2 = numpy.linalg.inv(cov2)
    dm = loc2 - loc
    kl_expected = 0.5 * (
        numpy.trace(inv2 @ cov, axis1=-2, axis2=-1)
        + numpy.einsum('bi,bij,bj->b', dm, inv2, dm)
        - 3
        + numpy.log(numpy.linalg.det(cov2) / numpy.linalg.det(cov))
    )
    kl = chainer.kl_divergence(d, D.MultivariateNormal(loc2, scale_tril=tril2))
    numpy.testing.assert_allclose(kl.array, kl_expected)
    t = tril[0]
    numpy.testing.assert_allclose(
        multivariate_normal._triangular_inv(t).array, numpy.linalg.inv(t)
    )
    gy = numpy.tril(numpy.ones((3, 3)))
    gradient_check.check_backward(
        multivariate_normal._triangular_inv, t, gy, atol=1e-4, rtol=1e-4
    )
