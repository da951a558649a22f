"""Every iterator visits the examples and reports its position as Chainer
7.8.1 does, for any dataset length and batch size (batches several times
larger than the dataset included), with and without repeat and shuffle,
and with order samplers whose epoch differs from the dataset's length.

The expected values come from the plain model in _reference_positions.py
(checked against Chainer 7.8.1 on 1080 combinations of all three of its
iterators). Without CHAINERLITE_FUZZ=full a bounded slice runs.
"""

import importlib.util
import os

import numpy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chainerlite import iterators
from chainerlite import serializers


def _load_reference():
    path = os.path.join(os.path.dirname(__file__), '_reference_positions.py')
    spec = importlib.util.spec_from_file_location('_reference_positions', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


reference = _load_reference()
_FULL = os.environ.get('CHAINERLITE_FUZZ') == 'full'

# (class, options, examples in the bounded slice, in the full run)
_ITERATORS = {
    'serial': (iterators.SerialIterator, {}, 150, 5000),
    'thread': (iterators.MultithreadIterator, {'n_threads': 2}, 60, 1500),
    'process': (iterators.MultiprocessIterator, {'n_processes': 2}, 12, 300),
    'process-shared': (
        iterators.MultiprocessIterator,
        {'n_processes': 1, 'n_prefetch': 3, 'shared_mem': 64},
        8,
        200,
    ),
}


def _sampler(mode, n, epoch_size, seed):
    if mode == 'none':
        return None
    if mode == 'shuffle':
        return iterators.ShuffleOrderSampler(numpy.random.RandomState(seed))
    if mode == 'permute':
        return reference.StatelessSampler(n, n, True)
    return reference.StatelessSampler(epoch_size, n, False)


_cases = st.tuples(
    st.integers(1, 9),  # dataset length
    st.integers(1, 40),  # batch size
    st.booleans(),  # repeat
    st.sampled_from(['none', 'shuffle', 'permute', 'draw']),
    st.integers(1, 12),  # epoch size of 'draw'
    st.integers(0, 2**32 - 1),  # seed of 'shuffle'
    st.integers(0, 6),  # batches before the snapshot
)


@pytest.mark.parametrize('kind', sorted(_ITERATORS))
def test_batches_and_positions_follow_the_model(kind):
    cls, options, examples, full = _ITERATORS[kind]

    @settings(max_examples=full if _FULL else examples, deadline=None, database=None)
    @given(_cases)
    def check(case):
        n, batch_size, repeat, mode, epoch_size, seed, cut = case
        count = 8

        def make():
            sampler = _sampler(mode, n, epoch_size, seed)
            if sampler is None:
                return cls(list(range(n)), batch_size, repeat, False, **options)
            return cls(
                list(range(n)), batch_size, repeat, order_sampler=sampler, **options
            )

        expected = reference.expected_batches(
            n, batch_size, repeat, _sampler(mode, n, epoch_size, seed), count
        )
        it = make()
        try:
            assert it.previous_epoch_detail is None
            first = reference.observe(it, cut)
            if mode == 'shuffle':  # its random state moved on: no resume
                rest = reference.observe(it, count - len(first))
            else:  # resume in a fresh iterator from a snapshot
                saved = {}
                it.serialize(serializers.DictionarySerializer(saved))
                it.finalize()
                it = make()
                it.serialize(serializers.NpzDeserializer(saved))
                rest = reference.observe(it, count - len(first))
        finally:
            it.finalize()
        assert first + rest == expected
        if repeat:
            assert all(len(batch) == batch_size for batch, *_ in first + rest)

    check()


@pytest.mark.parametrize('kind', sorted(_ITERATORS))
def test_three_examples_in_batches_of_four(kind):
    # The reported case, with the values Chainer 7.8.1 returns.
    cls, options, _, _ = _ITERATORS[kind]
    it = cls([0, 1, 2], 4, shuffle=False, **options)
    got = reference.observe(it, 4)
    it.finalize()
    assert got == [
        ([0, 1, 2, 0], 1, 4 / 3, True, 0.0, 1),
        ([1, 2, 0, 1], 2, 2 + 2 / 3, True, 4 / 3, 2),
        ([2, 0, 1, 2], 4, 4.0, True, 2 + 2 / 3, 0),
        ([0, 1, 2, 0], 5, 5 + 1 / 3, True, 4.0, 1),
    ]
