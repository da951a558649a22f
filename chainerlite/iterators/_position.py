"""Where an iterator stands in its dataset: epoch, position, order.

Every iterator keeps one ``_Position``; prefetching iterators keep a second
one that runs ahead to choose the batches being loaded.
"""

import copy

import numpy

from chainerlite.iterators import order_samplers


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


class _Position(object):
    def __init__(self, dataset_length, batch_size, repeat, order_sampler):
        if batch_size <= 0:
            raise ValueError(
                'batch_size must be positive, but is {}'.format(batch_size)
            )
        self.dataset_length = dataset_length
        self.batch_size = batch_size
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
            self.order = numpy.asarray(
                self.order_sampler(numpy.arange(self.dataset_length), 0)
            )
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

    def _indices(self, start, stop):
        if self.order is None:
            return list(range(start, min(stop, self.dataset_length)))
        return self.order[start:stop].tolist()

    def advance(self):
        """Moves by one batch and returns its dataset indices.

        Raises:
            StopIteration: If the iterator does not repeat and the epoch
                has ended.
            ValueError: If the order sampler changes the epoch size.

        """
        if not self.repeat and self.epoch > 0:
            raise StopIteration
        self.previous_epoch_detail = self.epoch_detail
        start = self.current_position
        stop = start + self.batch_size
        size = self.epoch_size
        indices = self._indices(start, stop)
        if stop < size:
            self.current_position = stop
            self.is_new_epoch = False
            return indices
        if self.order is not None:
            new_order = numpy.asarray(self.order_sampler(self.order, start))
            if len(new_order) != size:
                raise ValueError(
                    'the order sampler returned an order of {} indices '
                    'where the previous order had {}'.format(len(new_order), size)
                )
            self.order = new_order
        self.current_position = 0
        if self.repeat:  # the batch continues into the next epoch
            rest = stop - size
            indices += self._indices(0, rest)
            self.current_position = rest
        self.epoch += 1
        self.is_new_epoch = True
        return indices

    def serialize(self, serializer):
        self.current_position = serializer('current_position', self.current_position)
        self.epoch = serializer('epoch', self.epoch)
        self.is_new_epoch = serializer('is_new_epoch', self.is_new_epoch)
        if self.order is not None:
            # Loaded in place, as Chainer does (the multi-node iterator's
            # slaves rely on it); copies and pickles own their array.
            try:
                order = serializer('order', self.order)
            except KeyError:  # written by an older Chainer
                order = serializer('_order', self.order)
            if order is not None:
                self.order = numpy.asarray(order)
        previous = self.previous_epoch_detail
        try:
            previous = serializer(
                'previous_epoch_detail', -1.0 if previous is None else previous
            )
        except KeyError:  # written by an older Chainer: infer it
            previous = self.epoch_detail - self.batch_size / self.epoch_size
            if self.epoch == 0 and self.current_position == 0:
                previous = -1.0
        self.previous_epoch_detail = None if previous < 0 else float(previous)
