"""Every batch, the first included, keeps the dtypes of the examples, byte
order included. MultiprocessIterator's first batch (and arrays too large
for shared memory) travel pickled, and NumPy's pickles before protocol 5
give back big-endian arrays as little-endian ones."""

import multiprocessing

import numpy
import pytest

from chainerlite import iterators
from chainerlite.iterators import multiprocess_iterator

_DTYPES = [
    '>f4',
    '<f4',
    '>i8',
    '>f2',
    '>c16',
    '>U3',
    'S2',
    '>M8[s]',
    '?',
    numpy.dtype([('a', '>i4'), ('b', '<f8'), ('c', '>f4', (2,))]),
    numpy.dtype([('a', 'O'), ('b', '>i2')]),
    object,
]

_ITERATORS = {
    'serial': (iterators.SerialIterator, {}),
    'thread': (iterators.MultithreadIterator, {'n_threads': 2}),
    # The first batch through pipes, then shared memory.
    'process': (iterators.MultiprocessIterator, {'n_processes': 2}),
    # Shared memory from the start, too small for the larger arrays.
    'process-small': (
        iterators.MultiprocessIterator,
        {'n_processes': 2, 'shared_mem': 48},
    ),
    # No shared memory: every batch through pipes.
    'process-pipes': (
        iterators.MultiprocessIterator,
        {'n_processes': 1, 'shared_mem': 0},
    ),
}


class _Box(object):
    # An example that is not a tuple, list or dict.
    def __init__(self, array):
        self.array = array


def _array(dtype, i):
    dtype = numpy.dtype(dtype)
    a = numpy.zeros(3 + i % 3, dtype)
    if dtype.names is None and not dtype.hasobject:
        a[...] = numpy.arange(len(a)).astype(dtype) if dtype.kind != 'M' else i
    return a


def _dataset():
    examples = []
    for i in range(6):
        arrays = [_array(d, i) for d in _DTYPES]
        big = (numpy.arange(40) + i).astype('>f8')  # over shared_mem=48
        examples.append((arrays, {'big': big, 'scalar': numpy.float32(i)}, _Box(big)))
    return examples


def _check(batch, indices, data):
    for got, i in zip(batch, indices):
        want = data[i]
        for g, w in zip(
            got[0] + [got[1]['big'], got[2].array],
            want[0] + [want[1]['big'], want[2].array],
        ):
            assert g.dtype == w.dtype and g.dtype.str == w.dtype.str
            assert g.shape == w.shape
            if w.dtype.hasobject:
                assert g.tolist() == w.tolist()
            else:
                assert g.tobytes() == w.tobytes()
        assert type(got[1]['scalar']) is numpy.float32


@pytest.mark.parametrize('kind', sorted(_ITERATORS))
def test_every_batch_keeps_dtypes(kind):
    cls, options = _ITERATORS[kind]
    data = _dataset()
    it = cls(data, 2, shuffle=False, **options)
    try:
        for k in range(5):  # over an epoch end, new shared memory included
            _check(it.next(), [(2 * k + j) % 6 for j in range(2)], data)
    finally:
        it.finalize()


def test_workers_that_do_not_fork_get_the_dataset_with_its_dtypes(monkeypatch):
    # Where workers are spawned (macOS, Windows) the dataset is pickled
    # to them.
    spawn = multiprocessing.get_context('spawn')
    monkeypatch.setattr(multiprocess_iterator, '_context', lambda: spawn)
    data = [(numpy.arange(3) + i).astype('>i4') for i in range(4)]
    it = iterators.MultiprocessIterator(data, 4, n_processes=1, shuffle=False)
    try:
        batch = it.next() + it.next()
    finally:
        it.finalize()
    assert [a.dtype.str for a in batch] == ['>i4'] * 8
    assert [a.tolist() for a in batch] == [a.tolist() for a in data + data]
