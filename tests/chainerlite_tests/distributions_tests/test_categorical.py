import numpy
import pytest

import chainerlite as chainer
from chainerlite import distributions as D
from chainerlite import gradient_check

P = numpy.array([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]])


def test_categorical_log_prob_entropy_kl():
    d = D.Categorical(P)
    x = numpy.array([[2, 0], [1, 1]])
    numpy.testing.assert_allclose(d.log_prob(x).array, numpy.log(P[[0, 1], x]))
    numpy.testing.assert_allclose(d.entropy.array, -(P * numpy.log(P)).sum(-1))
    q = P[:, ::-1].copy()
    numpy.testing.assert_allclose(
        chainer.kl_divergence(d, D.Categorical(q)).array, (P * numpy.log(P / q)).sum(-1)
    )
    assert d.batch_shape == (2,) and d.event_shape == ()


def test_logit_equals_p():
    logit = numpy.log(P) + 3.0
    numpy.testing.assert_allclose(D.Categorical(logit=logit).p.array, P)
    with pytest.raises(ValueError, match='Categorical'):
        D.Categorical(p=P, logit=logit)


def test_categorical_sample_frequencies():
    numpy.random.seed(0)
    smp = D.Categorical(P).sample(20000).array
    assert smp.shape == (20000, 2) and smp.dtype == numpy.int64
    freq = numpy.stack([(smp == k).mean(0) for k in range(3)], -1)
    numpy.testing.assert_allclose(freq, P, atol=0.02)


def test_categorical_log_prob_backward():
    x = numpy.array([2, 0])
    gradient_check.check_backward(
        lambda p: D.Categorical(p).log_prob(x), P, numpy.ones(2)
    )


def test_one_hot_categorical():
    d = D.OneHotCategorical(P)
    x = numpy.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])
    numpy.testing.assert_allclose(d.log_prob(x).array, numpy.log([0.5, 0.6]))
    numpy.testing.assert_allclose(d.mean.array, P)
    numpy.testing.assert_allclose(d.variance.array, P * (1 - P))
    assert d.event_shape == (3,) and d.batch_shape == (2,)
    numpy.random.seed(0)
    smp = d.sample(20000).array
    assert smp.shape == (20000, 2, 3)
    numpy.testing.assert_array_equal(smp.sum(-1), 1.0)
    numpy.testing.assert_allclose(smp.mean(0), P, atol=0.02)
    with numpy.errstate(divide='ignore'):
        zero = D.OneHotCategorical(numpy.array([0.0, 0.4, 0.6]))
        lp = zero.log_prob(numpy.array([0.0, 1.0, 0.0])).array
    numpy.testing.assert_allclose(lp, numpy.log(0.4))
    q = P[:, ::-1].copy()
    numpy.testing.assert_allclose(
        chainer.kl_divergence(d, D.OneHotCategorical(q)).array,
        (P * numpy.log(P / q)).sum(-1),
    )


def _rows_drawn_one_after_the_other(draw_row, rows, n):
    # what drawing each row of the batch in turn gives, (n,) + batch
    return numpy.stack([draw_row(row, n) for row in rows], axis=1)


def test_seeded_samples_are_numpy_s_draws_row_by_row():
    # Chainer samples each row of the batch with NumPy's generator in turn:
    # a seeded program gets the same samples from both
    p = numpy.array([[0.1, 0.6, 0.3], [0.5, 0.25, 0.25]], numpy.float32)
    numpy.random.seed(5)
    expected = _rows_drawn_one_after_the_other(
        lambda row, n: numpy.random.choice(3, n, p=row), p, 7
    )
    numpy.random.seed(5)
    numpy.testing.assert_array_equal(D.Categorical(p).sample(7).array, expected)
    numpy.random.seed(5)
    onehot = D.OneHotCategorical(p).sample(7).array
    numpy.testing.assert_array_equal(onehot.argmax(-1), expected)
    assert onehot.dtype == numpy.float32

    alpha = numpy.array([[0.5, 2.0, 1.0], [3.0, 0.2, 1.5]], numpy.float32)
    numpy.random.seed(6)
    expected = _rows_drawn_one_after_the_other(numpy.random.dirichlet, alpha, 4)
    numpy.random.seed(6)
    numpy.testing.assert_array_equal(
        D.Dirichlet(alpha).sample(4).array, expected.astype(numpy.float32)
    )

    numpy.random.seed(7)
    expected = numpy.random.binomial(1, p, size=(5, 2, 3))
    numpy.random.seed(7)
    sample = D.Bernoulli(p).sample(5).array
    numpy.testing.assert_array_equal(sample, expected)
    assert sample.dtype == expected.dtype  # integers, as Chainer's
