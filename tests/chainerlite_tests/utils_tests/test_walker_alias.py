import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite import utils
from chainerlite.backends import cuda


def _frequencies(sampler, n, size=60000):
    samples = cuda.to_cpu(sampler.sample((size // 4, 4)))
    assert samples.shape == (size // 4, 4)
    assert samples.dtype == numpy.int32
    return numpy.bincount(samples.ravel(), minlength=n) / size


@pytest.mark.parametrize(
    'probs',
    [[5, 3, 4, 1, 2], [0.1, 0.0, 0.9], [1.0], numpy.array([2, 2, 2, 2], numpy.int32)],
)
def test_sample_frequencies(probs):
    expected = numpy.asarray(probs, numpy.float64)
    expected /= expected.sum()
    sampler = utils.WalkerAlias(probs)
    assert not sampler.use_gpu
    numpy.testing.assert_allclose(
        _frequencies(sampler, len(expected)), expected, atol=0.01
    )


def test_zero_probability_is_never_drawn():
    sampler = utils.WalkerAlias([0.5, 0.0, 0.5, 0.0])
    assert set(numpy.unique(sampler.sample((1000,))).tolist()) == {0, 2}


def test_table_is_exact():
    # Column i yields values[2i] with probability threshold[i], values[2i+1]
    # otherwise (Chainer's layout); the columns together must give back the
    # distribution.
    probs = numpy.array([0.05, 0.4, 0.15, 0.3, 0.1])
    sampler = utils.WalkerAlias(probs)
    n = len(probs)
    assert sampler.values.shape == (2 * n,) and sampler.values.dtype == numpy.int32
    rebuilt = numpy.zeros(n)
    for i in range(n):
        rebuilt[sampler.values[2 * i]] += sampler.threshold[i] / n
        rebuilt[sampler.values[2 * i + 1]] += (1 - sampler.threshold[i]) / n
    # up to the float32 rounding of the table
    numpy.testing.assert_allclose(rebuilt, probs, rtol=1e-6)


def test_a_column_yields_its_second_entry_past_its_threshold(monkeypatch):
    sampler = utils.WalkerAlias([0.25, 0.75])
    # entries from the least likely: 0 fills column 0 by half, 1 completes
    # it and fills column 1
    assert sampler.threshold.dtype == numpy.float32
    numpy.testing.assert_array_equal(sampler.threshold, [0.5, 1.0])
    numpy.testing.assert_array_equal(sampler.values, [0, 1, 1, 0])
    # u = column + fraction: column 0 below and past 0.5, column 1
    draws = numpy.array([0.2, 0.4999, 0.5, 0.8, 1.2, 1.98])
    monkeypatch.setattr(
        numpy.random, 'uniform', lambda low, high, shape: draws.reshape(shape)
    )
    numpy.testing.assert_array_equal(sampler.sample((6,)), [0, 0, 0, 1, 1, 1])


def test_table_sorts_the_entries_and_rounds_to_float32():
    sampler = utils.WalkerAlias([3.0, 1.0, 0.0, 2.0])
    # columns in order of probability: 2 (share 0), 1 (2/3), 3 (4/3: it
    # completes column 0 and keeps 1/3), 0 (2: it completes columns 1 and
    # 2 and fills column 3); column 3's second slot stays entry 0
    numpy.testing.assert_array_equal(sampler.values, [2, 3, 1, 0, 3, 0, 0, 0])
    expected = numpy.array([0.0, 2 / 3, 1 / 3, 1.0], numpy.float32)
    numpy.testing.assert_allclose(sampler.threshold, expected, rtol=1e-6)


def test_samples_follow_the_numpy_seed():
    # one numpy.random.uniform(0, n) number per sample, as Chainer draws
    sampler = utils.WalkerAlias([0.1, 0.2, 0.3, 0.4])
    numpy.random.seed(3)
    u = numpy.random.uniform(0, 4, (5, 2))
    column = u.astype(numpy.int32)
    fraction = u.astype(numpy.float32) - column
    second = sampler.threshold[column] < fraction
    numpy.random.seed(3)
    numpy.testing.assert_array_equal(
        sampler.sample((5, 2)), sampler.values[2 * column + second]
    )
    numpy.random.seed(3)
    first = sampler.sample(7)
    numpy.random.seed(3)
    numpy.testing.assert_array_equal(sampler.sample((7,)), first)


def test_forget_replays_the_draws():
    # a function that samples in its forward: the recomputation of
    # F.forget draws the same samples, so the gradient is that of the
    # forward's
    sampler = utils.WalkerAlias([1.0, 2.0, 3.0, 4.0])
    seen = []

    def f(x):
        s = sampler.sample((6,))
        seen.append(s)
        return x * s.astype(numpy.float32)

    x = chainerlite.Variable(numpy.ones(6, numpy.float32))
    y = F.forget(f, x)
    F.sum(y).backward()
    assert len(seen) == 2
    numpy.testing.assert_array_equal(seen[0], seen[1])
    numpy.testing.assert_array_equal(x.grad, seen[0].astype(numpy.float32))


@pytest.mark.parametrize('probs', [[], [[0.5, 0.5]], [1.0, -0.5], [0.0, 0.0]])
def test_invalid_probs(probs):
    with pytest.raises(ValueError, match='probs'):
        utils.WalkerAlias(probs)


@testing.attr.gpu
def test_sample_on_gpu():
    sampler = utils.WalkerAlias([5, 3, 4, 1, 2])
    sampler.to_gpu()
    assert sampler.use_gpu
    assert isinstance(sampler.sample((3,)), cuda.cupy.ndarray)
    numpy.testing.assert_allclose(
        _frequencies(sampler, 5), numpy.array([5, 3, 4, 1, 2]) / 15, atol=0.01
    )
    sampler.to_cpu()
    assert not sampler.use_gpu
    assert isinstance(sampler.sample((3,)), numpy.ndarray)
