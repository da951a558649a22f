"""MultiprocessIterator: examples loaded by worker processes."""

import contextlib
import multiprocessing
import sys
import warnings

import numpy

from chainerlite.iterators import _dtype_pickle
from chainerlite.iterators import _prefetch
from chainerlite.iterators import _shared_memory
from chainerlite.iterators import _workers

# What a worker process holds, set once when it starts.
_worker_dataset = None
_worker_buffer = None
_worker_mem = None


class _Pickled(object):
    # The dataset sent to workers that do not fork, pickled so that its
    # arrays keep their byte order.
    def __init__(self, dataset):
        self.data = _dtype_pickle.dumps(dataset)


def _init_worker(dataset, raw_buffer, shared_mem):
    global _worker_dataset, _worker_buffer, _worker_mem
    if isinstance(dataset, _Pickled):
        dataset = _dtype_pickle.loads(dataset.data)
    _worker_dataset = dataset
    _worker_mem = shared_mem
    if raw_buffer is not None:
        _worker_buffer = numpy.frombuffer(raw_buffer, dtype=numpy.uint8)


def _fetch(task):
    region_index, index = task
    example = _worker_dataset[index]
    if _worker_buffer is None:
        return example
    start = region_index * _worker_mem
    return _shared_memory.pack(example, _worker_buffer[start : start + _worker_mem])


def _context():
    # Workers inherit the dataset by fork where the platform allows it (as
    # in Chainer, datasets need not be picklable); elsewhere the dataset is
    # pickled to each worker once.
    if sys.platform.startswith('linux'):
        return multiprocessing.get_context('fork')
    return multiprocessing.get_context()


class MultiprocessIterator(_prefetch._PrefetchIterator):
    """Iterator that loads examples in worker processes.

    ``n_processes`` worker processes read the examples of the next
    ``n_prefetch`` batches while the caller uses the current one; the
    arguments and position attributes are otherwise those of
    :class:`~chainerlite.iterators.SerialIterator`. Workers start at the
    first ``next()`` and inherit the dataset (on Linux, by fork), so the
    dataset need not be picklable there. The NumPy arrays of the examples
    come back through shared memory, the rest pickled; either way arrays
    keep their dtype, byte order included. Workers ignore Ctrl-C;
    :meth:`finalize` (also run when the iterator is garbage-collected, at
    interpreter exit, or on leaving a ``with`` block) stops them; they are
    daemonic, so they end with the main process, and exit on their own if
    it is killed. A worker that dies while loading (killed, out of memory,
    a crash in the dataset's code) makes ``next()`` raise a
    ``RuntimeError`` that says so at once; the position does not move,
    and the next call starts new workers.

    Args:
        dataset: Any object with ``__len__`` and ``__getitem__``.
        batch_size (int): Number of examples per batch.
        repeat (bool): Run over the dataset again and again.
        shuffle (bool): Shuffle every epoch (``None``: ``True`` unless
            ``order_sampler`` is given).
        n_processes (int): Number of workers (the number of CPUs when
            ``None`` or 0).
        n_prefetch (int): Number of batches loaded ahead (at least 1: a
            smaller number counts as 1).
        shared_mem (int): Bytes of shared memory per example for its
            arrays; ``None`` sizes it from the first batch (which comes
            through pipes), with a quarter more for larger examples.
            Arrays of an example that do not fit go through pipes
            (pickled).
        order_sampler (callable): Chooses the order of each epoch.
        dataset_timeout (float): Seconds to wait for a batch before
            warning (:class:`MultiprocessIterator.TimeoutWarning`) that the
            dataset seems stalled; ``None`` for no warning. The iterator
            keeps waiting after the warning.
        maxtasksperchild (int): Replace a worker after it has loaded its
            share of this many batches (``None``: never).

    """

    _RELOAD = (_workers.WorkerDied,)  # (the position does not move)

    class TimeoutWarning(RuntimeWarning):
        """A batch took longer than ``dataset_timeout`` to load."""

    def __init__(
        self,
        dataset,
        batch_size,
        repeat=True,
        shuffle=None,
        n_processes=None,
        n_prefetch=1,
        shared_mem=None,
        order_sampler=None,
        dataset_timeout=30.0,
        maxtasksperchild=None,
    ):
        if n_processes is not None and n_processes < 0:
            raise ValueError(
                'n_processes must not be negative, but is {}'.format(n_processes)
            )
        # as in Chainer: 0 workers means one per CPU, and at least one
        # batch is always loaded ahead
        self.n_processes = n_processes or multiprocessing.cpu_count()
        n_prefetch = max(n_prefetch, 1)
        self.n_prefetch = n_prefetch
        self.shuffle = shuffle
        self.shared_mem = shared_mem
        # Bytes of shared memory per example (None: not sized yet; 0: none)
        self._mem = shared_mem
        self.dataset_timeout = dataset_timeout
        self.maxtasksperchild = maxtasksperchild
        self._depth = n_prefetch
        self._finalized = False
        self._set_dataset(dataset, batch_size, repeat, shuffle, order_sampler)

    def _start_pool(self):
        if self._finalized:
            raise RuntimeError('MultiprocessIterator: next() after finalize()')
        # One region per example of each batch in flight.
        self._free_regions = list(range(self.n_prefetch))
        return self._new_pool()

    def _new_pool(self):
        raw = None
        self._buffer = None
        if self._mem:
            raw = multiprocessing.RawArray(
                'b', self.n_prefetch * self.batch_size * self._mem
            )
            self._buffer = numpy.frombuffer(raw, dtype=numpy.uint8)
        context = _context()
        dataset = self.dataset
        if context.get_start_method() != 'fork':
            dataset = _Pickled(dataset)
        return _workers.WorkerPool(
            context,
            self.n_processes,
            _fetch,
            _init_worker,
            (dataset, raw, self._mem),
            self.maxtasksperchild,
        )

    @staticmethod
    def _close_pool(pool):
        pool.terminate()

    def _submit(self, indices):
        region = self._free_regions.pop()
        first = region * self.batch_size
        tasks = [(first + j, i) for j, i in enumerate(indices)]
        return self._pool, self._pool.submit(tasks), region

    def _receive(self, task):
        try:
            batch = self._receive_batch(task)
            if self._mem is None:
                # the old workers finish their batches: one may die there
                self._size_shared_memory(batch)
        except _workers.WorkerDied:
            # The workers are gone: load again from the caller's position.
            self._pending.clear()
            self._stop_pool()
            super()._drop_pending()
            raise
        return batch

    def _can_wait_again(self, task):
        pool, key, _ = task
        return pool.waiting(key)

    def _receive_batch(self, task):
        pool, key, region = task
        try:
            batch = self._wait(pool, key)
        except Exception:
            self._free_regions.append(region)
            raise
        # (not on a Ctrl-C: the workers may still write into the region,
        # and the task is waited for again)
        self._free_regions.append(region)
        if self._buffer is None:
            return batch
        mem = self._mem
        first = region * self.batch_size
        return [
            _shared_memory.unpack(
                example, self._buffer[(first + j) * mem : (first + j + 1) * mem]
            )
            for j, example in enumerate(batch)
        ]

    def _size_shared_memory(self, batch):
        # shared_mem=None: the first batch came through pipes; size the
        # regions after its largest example (with room for larger ones)
        # and move to workers that write into them. The batches in flight
        # are received from the old workers, which then stop.
        needed = max(_shared_memory.size_of(example) for example in batch)
        self._mem = -(-needed * 5 // 4 // 4096) * 4096
        if self._mem:
            self._closer.detach()
            self._pool.close()
            self._set_pool(self._new_pool())

    def _wait(self, pool, key):
        if self.dataset_timeout is not None:
            try:
                return pool.receive(key, self.dataset_timeout)
            except multiprocessing.TimeoutError:
                warnings.warn(
                    'MultiprocessIterator: no batch arrived within '
                    'dataset_timeout={} seconds; the dataset may be '
                    'stalled (slow storage, a deadlock in __getitem__, or '
                    'too few workers). Still waiting.'.format(self.dataset_timeout),
                    MultiprocessIterator.TimeoutWarning,
                )
        return pool.receive(key)

    def _drop_pending(self):
        # A dropped batch may still be written into its region: wait for it.
        for (pool, key, region), _ in self._pending:
            with contextlib.suppress(Exception):  # its error goes with it
                pool.receive(key)
            self._free_regions.append(region)
        if self._pool is not None and not self._pool.running:
            self._stop_pool()  # a worker died: new ones at the next call
        super()._drop_pending()

    def reset(self):
        """Goes back to the start of the first epoch (with a new order).

        Raises:
            NotImplementedError: After :meth:`finalize`.

        """
        if self._finalized:
            raise NotImplementedError(
                'MultiprocessIterator does not support reset() after finalize()'
            )
        super().reset()

    def finalize(self):
        """Stops the worker processes; the iterator cannot be used after."""
        self._pending.clear()
        self._stop_pool()
        self._finalized = True

    def __getstate__(self):
        state = super().__getstate__()
        for name in ('_buffer', '_free_regions'):
            state.pop(name, None)
        return state
