"""MultithreadIterator: examples loaded by a pool of threads."""

from multiprocessing import pool as mp_pool

from chainerlite.iterators import _prefetch
from chainerlite.iterators import serial_iterator


class MultithreadIterator(serial_iterator._LiveBatchSize, _prefetch._PrefetchIterator):
    """Iterator that loads the examples of a batch with threads.

    The examples of a batch are read in parallel by ``n_threads`` threads,
    and the next batch is read while the caller uses the current one. Use
    it when reading an example waits on I/O or runs code that releases the
    GIL (image decoding). The arguments and the position attributes are
    those of :class:`~chainerlite.iterators.SerialIterator`.

    Args:
        dataset: Any object with ``__len__`` and ``__getitem__``.
        batch_size (int): Number of examples per batch.
        repeat (bool): Run over the dataset again and again.
        shuffle (bool): Shuffle every epoch (``None``: ``True`` unless
            ``order_sampler`` is given).
        n_threads (int): Number of threads.
        order_sampler (callable): Chooses the order of each epoch.

    """

    _ORDER_KEY = '_order'  # the key Chainer 7.8.1's MultithreadIterator writes
    _ORDER_ALWAYS = True  # and writes (None) without an order

    def __init__(
        self,
        dataset,
        batch_size,
        repeat=True,
        shuffle=None,
        n_threads=1,
        order_sampler=None,
    ):
        if n_threads < 1:
            raise ValueError('n_threads must be positive, but is {}'.format(n_threads))
        self.n_threads = n_threads
        self._set_dataset(dataset, batch_size, repeat, shuffle, order_sampler)

    def _start_pool(self):
        return mp_pool.ThreadPool(self.n_threads)

    @staticmethod
    def _close_pool(pool):
        pool.terminate()
        pool.join()

    def _submit(self, indices):
        return self._pool.map_async(self.dataset.__getitem__, indices)

    def _receive(self, task):
        return task.get()

    def finalize(self):
        """Stops the threads; ``next()`` or ``reset()`` starts new ones."""
        self._drop_pending()
        self._stop_pool()
