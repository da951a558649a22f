import numpy
import pytest

from chainerlite import testing
from chainerlite import utils
from chainerlite.backends import cuda
from chainerlite.functions.noise import _random


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
    numpy.testing.assert_allclose(rebuilt, probs)


def test_a_column_yields_its_second_entry_past_its_threshold(monkeypatch):
    sampler = utils.WalkerAlias([0.25, 0.75])
    numpy.testing.assert_array_equal(sampler.threshold, [0.5, 1.0])
    numpy.testing.assert_array_equal(sampler.values, [0, 1, 1, 1])
    # u * 2 = column + fraction: column 0 below and past 0.5, column 1
    draws = numpy.array([0.1, 0.2499, 0.25, 0.4, 0.6, 0.99])
    monkeypatch.setattr(_random, 'uniform', lambda xp, shape, dtype: draws)
    numpy.testing.assert_array_equal(sampler.sample((6,)), [0, 0, 1, 1, 1, 1])


def test_sample_uses_the_random_helper(monkeypatch):
    calls = []

    def uniform(xp, shape, dtype):
        calls.append(shape)
        return numpy.full(shape, 0.99, dtype)

    monkeypatch.setattr(_random, 'uniform', uniform)
    sampler = utils.WalkerAlias([1, 1, 1])
    numpy.testing.assert_array_equal(sampler.sample((2,)), [2, 2])
    assert calls == [(2,)]


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
