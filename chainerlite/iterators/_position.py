"""Where an iterator stands in its dataset: epoch, position, order.

Every iterator keeps one ``_Position``; prefetching iterators keep a second
one that runs ahead to choose the batches being loaded.
"""

import copy
import operator

import numpy

from chainerlite.iterators import order_samplers
from chainerlite.iterators import _snapshot_checks


def make_order_sampler(shuffle, order_sampler):
    """Returns the order sampler for Chainer's ``shuffle``/``order_sampler``
    arguments, or ``None`` for the dataset order."""
    if order_sampler is not None:
        if shuffle is not None:
            raise ValueError(
                '`shuffle` is not `None` and a custom `order_sampler` is '
                'set; set `shuffle` to `None` to use the custom order '
                'sampler'
            )
        return order_sampler
    if shuffle is None or shuffle:
        return order_samplers.ShuffleOrderSampler()
    return None


def checked_batch_size(value):
    """``value`` as an int: a whole number (an index: ``int``, NumPy's
    integers), positive.

    Raises:
        TypeError: If ``value`` is not a whole number (Chainer's iterators
            failed at the first batch, slicing with it).
        ValueError: If ``value`` is not positive.

    """
    try:
        size = operator.index(value)
    except TypeError:
        raise TypeError(
            'batch_size must be an integer, but is {!r} ({})'.format(
                value, type(value).__name__
            )
        ) from None
    if size <= 0:
        raise ValueError('batch_size must be positive, but is {}'.format(value))
    return size


class _Position(object):
    def __init__(self, dataset_length, batch_size, repeat, order_sampler):
        self.dataset_length = dataset_length
        self.batch_size = checked_batch_size(batch_size)
        self.repeat = repeat
        self.order_sampler = order_sampler
        self.reset()

    def reset(self):
        self.epoch = 0
        self.current_position = 0
        self.is_new_epoch = False
        self.previous_epoch_detail = None
        self.order = None
        if self.order_sampler is not None:
            order = self.order_sampler(numpy.arange(self.dataset_length), 0)
            # a sampler's first order of None means the dataset order for good
            if order is not None:
                self.order = numpy.asarray(order)
        if self.epoch_size == 0:
            raise ValueError('cannot iterate over an empty dataset')

    def copy(self):
        # Shares the order array: it is only ever replaced while iterating.
        return copy.copy(self)

    def detached(self):
        """A copy with its own order array, safe from in-place loads."""
        other = copy.copy(self)
        if other.order is not None:
            other.order = other.order.copy()
        return other

    @property
    def epoch_size(self):
        if self.order is None:
            return self.dataset_length
        return len(self.order)

    @property
    def epoch_detail(self):
        return self.epoch + self.current_position / self.epoch_size

    def advance(self):
        """Moves by one batch and returns its dataset indices.

        With ``repeat`` the batch always has ``batch_size`` indices: one
        that reaches the end of the epoch goes on with the next epoch's
        order, over as many epochs as it takes. Without ``repeat`` the
        batch stops at the end of the first epoch.

        Raises:
            StopIteration: If the iterator does not repeat and the epoch
                has ended.
            ValueError: If the order sampler changes the epoch size.

        """
        if not self.repeat and self.epoch > 0:
            self.stop()
        # Worked on copies, so that a failing order sampler moves nothing.
        order, epoch = self.order, self.epoch
        start = self.current_position
        stop = start + self.batch_size
        size = self.epoch_size
        indices = []
        while stop >= size:  # the batch reaches the end of an epoch
            indices += self._indices(order, start, size)
            order = self._next_order(order, start)
            epoch += 1
            start = 0
            if not self.repeat:
                stop = 0
                break
            stop -= size
        indices += self._indices(order, start, stop)
        self.previous_epoch_detail = self.epoch_detail
        self.is_new_epoch = epoch != self.epoch
        self.order, self.epoch, self.current_position = order, epoch, stop
        return indices

    def stop(self):
        """Raises StopIteration; as in Chainer, the call that stops moves
        ``previous_epoch_detail`` to the current ``epoch_detail``."""
        self.previous_epoch_detail = self.epoch_detail
        raise StopIteration

    def _indices(self, order, start, stop):
        if order is None:
            return list(range(start, stop))
        return order[start:stop].tolist()

    def _next_order(self, order, position):
        if order is None:
            return None
        new_order = numpy.asarray(self.order_sampler(order, position))
        if len(new_order) != len(order):
            raise ValueError(
                'the order sampler returned an order of {} indices '
                'where the previous order had {}'.format(len(new_order), len(order))
            )
        return new_order

    def serialize(self, serializer, order_key='order', order_always=False):
        # a snapshot is untrusted: every value is checked before any is set
        _snapshot_checks.check_position(
            serializer, self, self.dataset_length, self.order, self.order_sampler
        )
        self.current_position = serializer('current_position', self.current_position)
        self.epoch = serializer('epoch', self.epoch)
        self.is_new_epoch = serializer('is_new_epoch', self.is_new_epoch)
        if self.order is not None:
            # Loaded in place, as Chainer does (the multi-node iterator's
            # slaves rely on it); copies and pickles own their array.
            # Written under order_key (Chainer's MultithreadIterator uses
            # '_order'); loaded from either key.
            other_key = '_order' if order_key == 'order' else 'order'
            try:
                order = serializer(order_key, self.order)
            except KeyError:
                order = serializer(other_key, self.order)
            if order is not None:
                self.order = numpy.asarray(order)
        elif order_always:
            # written as None, as Chainer's MultithreadIterator does; what a
            # snapshot holds there is not loaded (no order to load it into)
            try:
                serializer(order_key, None)
            except KeyError:
                pass
        previous = self.previous_epoch_detail
        try:
            previous = serializer(
                'previous_epoch_detail', -1.0 if previous is None else previous
            )
        except KeyError:  # written by an older Chainer: infer it
            previous = -1.0
            if self.epoch_detail > 0:
                previous = max(
                    0.0, self.epoch_detail - self.batch_size / self.epoch_size
                )
        self.previous_epoch_detail = None if previous < 0 else float(previous)
