import numpy
import pytest

import chainerlite as chainer
from chainerlite import distributions as D
from chainerlite.distributions import bernoulli
from chainerlite import gradient_check


P = numpy.array([0.2, 0.5, 0.9])


def test_log_prob_mean_variance_entropy():
    dist = D.Bernoulli(P)
    x = numpy.array([1.0, 0.0, 1.0])
    expected = numpy.where(x == 1, numpy.log(P), numpy.log(1 - P))
    numpy.testing.assert_allclose(dist.log_prob(x).array, expected)
    numpy.testing.assert_allclose(dist.prob(x).array, numpy.exp(expected))
    numpy.testing.assert_allclose(dist.mean.array, P)
    numpy.testing.assert_allclose(dist.variance.array, P * (1 - P))
    numpy.testing.assert_allclose(
        dist.entropy.array, -P * numpy.log(P) - (1 - P) * numpy.log(1 - P)
    )
    assert dist.support == '{0, 1}'
    assert dist.batch_shape == (3,) and dist.event_shape == ()


def test_logit_parameterization():
    logit = numpy.log(P / (1 - P))
    a, b = D.Bernoulli(p=P), D.Bernoulli(logit=logit)
    numpy.testing.assert_allclose(b.p.array, P)
    numpy.testing.assert_allclose(a.logit.array, logit)


def test_extreme_probabilities():
    dist = D.Bernoulli(numpy.array([0.0, 1.0]))
    with numpy.errstate(divide='ignore'):
        lp = dist.log_prob(numpy.array([[0.0, 1.0], [1.0, 0.0]])).array
        entropy = dist.entropy.array
    numpy.testing.assert_array_equal(lp, [[0.0, 0.0], [-numpy.inf, -numpy.inf]])
    numpy.testing.assert_array_equal(entropy, [0.0, 0.0])


def test_binary_check():
    x = numpy.array([0.3, 0.5, 1.0])
    lp = D.Bernoulli(P, binary_check=True).log_prob(x).array
    assert numpy.isneginf(lp[:2]).all() and numpy.isfinite(lp[2])
    assert numpy.isfinite(D.Bernoulli(P).log_prob(x).array).all()


def test_sample_mean():
    numpy.random.seed(0)
    smp = D.Bernoulli(P).sample(20000).array
    assert smp.shape == (20000, 3) and set(numpy.unique(smp)) <= {0.0, 1.0}
    numpy.testing.assert_allclose(smp.mean(0), P, atol=0.02)


def test_log_prob_backward_and_broadcast():
    logit = numpy.array(0.3)
    x = numpy.array([0.0, 1.0, 1.0])
    gy = numpy.array([0.5, -1.0, 2.0])
    gradient_check.check_backward(
        lambda l: bernoulli._bernoulli_log_prob(l, x),
        logit,
        gy,
        dtype=numpy.float64,
        atol=1e-4,
        rtol=1e-4,
    )


def test_kl():
    q = P[::-1].copy()
    kl = chainer.kl_divergence(D.Bernoulli(P), D.Bernoulli(q)).array
    expected = P * numpy.log(P / q) + (1 - P) * numpy.log((1 - P) / (1 - q))
    numpy.testing.assert_allclose(kl, expected)


def test_needs_exactly_one_parameter():
    with pytest.raises(ValueError, match='Bernoulli'):
        D.Bernoulli()
    with pytest.raises(ValueError, match='Bernoulli'):
        D.Bernoulli(p=P, logit=P)


def test_log_prob_at_an_infinite_logit_is_the_limit_for_any_x():
    # p = 0 (logit -inf) and p = 1 (logit +inf): log(1 - x) and log(x), so
    # a value between 0 and 1 is finite without binary_check, as in Chainer
    x = numpy.array([0.0, 0.25, 1.0], numpy.float32)
    with numpy.errstate(divide='ignore'):
        for p, expected in ((0.0, numpy.log1p(-x)), (1.0, numpy.log(x))):
            dist = D.Bernoulli(numpy.full(3, p, numpy.float32))
            numpy.testing.assert_allclose(dist.log_prob(x).array, expected, rtol=1e-6)
            assert (dist.prob(x).array > 0).tolist() == list(numpy.isfinite(expected))
        checked = D.Bernoulli(numpy.zeros(3, numpy.float32), binary_check=True)
        assert checked.log_prob(x).array[1] == -numpy.inf
