"""Base of iterators that load the next batches while the caller works.

The position the caller sees (``_pos``) moves only when ``next()`` hands a
batch over; a second position (``_ahead``) chooses the batches being
loaded. Pickling, copying, serializing and resetting all act on the
caller's position and drop what was being loaded, so a restored iterator
continues exactly where the caller was.

The pool of threads or processes is stopped by a ``weakref.finalize``,
which runs when the iterator is collected or, for an iterator still alive
(in a reference cycle, say), at interpreter exit while modules still work:
a ``__del__`` run that late fails and prints a traceback.
"""

import collections
import weakref

from chainerlite.iterators import serial_iterator


class _PrefetchIterator(serial_iterator._PositionAttributes):
    # How many batches are loaded ahead (set by subclasses).
    _depth = 1
    # The snapshot key of the order (Chainer's MultithreadIterator: '_order').
    _ORDER_KEY = 'order'
    # Whether the key is written (None) when there is no order, as Chainer's
    # MultithreadIterator writes it.
    _ORDER_ALWAYS = False
    # The errors of ``_receive`` after which the batch is loaded again;
    # after any other (the dataset's own) the batch is spent, as in Chainer.
    _RELOAD = ()

    def _set_dataset(self, *args):
        self._pending = collections.deque()
        super()._set_dataset(*args)
        self._ahead = self._pos.copy()
        self._pool = None
        self._closer = None

    def _positions(self):
        # the caller's, the one ahead and those after each loading batch
        positions = [self._pos, self.__dict__.get('_ahead')]
        positions += [after for _, after in self._pending]
        return [pos for pos in positions if pos is not None]

    # -- subclass hooks --------------------------------------------------
    def _start_pool(self):
        raise NotImplementedError

    @staticmethod
    def _close_pool(pool):
        # Stops the pool (must not refer to the iterator).
        raise NotImplementedError

    def _submit(self, indices):
        raise NotImplementedError

    def _receive(self, task):
        raise NotImplementedError

    def _can_wait_again(self, task):
        # Whether ``_receive`` interrupted by a Ctrl-C can wait for ``task``
        # again.
        return True

    # --------------------------------------------------------------------
    def __next__(self):
        if self._pool is None:
            self._set_pool(self._start_pool())
        self._fill()
        if not self._pending:
            self._pos.stop()
        task, after = self._pending.popleft()
        try:
            batch = self._receive(task)
        except self._RELOAD:
            raise
        except Exception:
            self._pos = after
            raise
        except BaseException:
            # a Ctrl-C while the batch loads: the next call waits for it
            # again (after it arrived, it is spent, as in Chainer)
            if self._can_wait_again(task):
                self._pending.appendleft((task, after))
            else:
                self._pos = after
            raise
        self._pos = after
        self._fill()
        return batch

    def _fill(self):
        while len(self._pending) < self._depth:
            try:
                indices = self._ahead.advance()
            except StopIteration:
                return
            self._pending.append((self._submit(indices), self._ahead.copy()))

    def _drop_pending(self):
        self._pending.clear()
        self._ahead = self._pos.copy()

    def _set_pool(self, pool):
        self._pool = pool
        self._closer = weakref.finalize(self, self._close_pool, pool)

    def _stop_pool(self):
        closer = self.__dict__.get('_closer')
        self._pool = self._closer = None
        if closer is not None:
            closer()

    def reset(self):
        """Goes back to the start of the first epoch (with a new order)."""
        self._pos.reset()
        self._drop_pending()

    def serialize(self, serializer):
        """Saves or loads the position, so training can resume mid-epoch."""
        self._pos.serialize(serializer, self._ORDER_KEY, self._ORDER_ALWAYS)
        self._drop_pending()

    def __getstate__(self):
        # Workers and batches in flight stay with this object.
        state = super().__getstate__()
        state['_pool'] = state['_closer'] = None
        state['_pending'] = collections.deque()
        state['_ahead'] = state['_pos'].copy()
        return state
