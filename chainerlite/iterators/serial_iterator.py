"""SerialIterator: minibatches read in the main thread."""

from __future__ import annotations

import collections
import typing

from chainerlite.dataset import iterator
from chainerlite.iterators import _position

if typing.TYPE_CHECKING:
    from chainerlite.iterators import order_samplers

# Where an iterator stands, as Chainer's iterators expose it in ``_state``.
IteratorState = collections.namedtuple(
    'IteratorState', ('current_position', 'epoch', 'is_new_epoch', 'order')
)


class _PositionAttributes(iterator.Iterator):
    # The position of the iterator, read from its _Position (self._pos).

    def _set_dataset(self, dataset, batch_size, repeat, shuffle, order_sampler):
        self.dataset = dataset
        self._shuffle = shuffle
        self._pos = _position._Position(
            len(dataset),
            batch_size,
            repeat,
            _position.make_order_sampler(shuffle, order_sampler),
        )
        self.batch_size = batch_size

    def _positions(self):
        # the positions that choose batches from now on
        return (self._pos,)

    def __getstate__(self):
        # Copies and unpickled iterators move independently.
        state = self.__dict__.copy()
        state['_pos'] = self._pos.detached()
        return state

    @property
    def epoch(self):
        return self._pos.epoch

    @property
    def current_position(self):
        return self._pos.current_position

    @property
    def is_new_epoch(self):
        return self._pos.is_new_epoch

    @property
    def epoch_detail(self):
        """Epochs done, as a float (``epoch + position / epoch size``)."""
        return self._pos.epoch_detail

    @property
    def previous_epoch_detail(self):
        """``epoch_detail`` before the last ``next()`` (``None`` before the
        first)."""
        return self._pos.previous_epoch_detail

    @property
    def repeat(self):
        return self._pos.repeat

    @property
    def order_sampler(self):
        """The order sampler; one set later draws the next epochs' orders
        (an iterator made with ``shuffle=False`` keeps the dataset order)."""
        return self._pos.order_sampler

    @order_sampler.setter
    def order_sampler(self, sampler):
        for pos in self._positions():
            pos.order_sampler = sampler

    @property
    def _order(self):
        return self._pos.order

    # Chainer's private names, which code written for it reads
    @property
    def _repeat(self):
        return self._pos.repeat

    @property
    def _epoch_size(self):
        return self._pos.epoch_size

    @property
    def _previous_epoch_detail(self):
        # -1 stands for None, as in Chainer
        previous = self._pos.previous_epoch_detail
        return -1.0 if previous is None else previous

    @_previous_epoch_detail.setter
    def _previous_epoch_detail(self, value):
        for pos in self._positions():
            pos.previous_epoch_detail = None if value < 0 else value

    @property
    def _state(self):
        pos = self._pos
        return IteratorState(
            pos.current_position, pos.epoch, pos.is_new_epoch, pos.order
        )


class _LiveBatchSize(object):
    # ``batch_size`` set later sizes the batches chosen from then on, as
    # Chainer's SerialIterator and MultithreadIterator read their
    # attribute at each batch (a batch already loading keeps its size).

    @property
    def batch_size(self):
        return self._pos.batch_size

    @batch_size.setter
    def batch_size(self, value):
        value = _position.checked_batch_size(value)
        for pos in self._positions():
            pos.batch_size = value


class SerialIterator(_LiveBatchSize, _PositionAttributes):
    """Iterator that reads minibatches in the calling thread.

    Each ``next()`` returns a list of ``batch_size`` examples. With
    ``repeat`` it runs forever and a batch that crosses the end of an epoch
    continues with the next epoch's order (over several epochs when the
    batch is larger than an epoch: batches are always full); without it
    the last batch of the epoch may be shorter and the next call raises
    ``StopIteration``.

    Args:
        dataset: Any object with ``__len__`` and ``__getitem__``.
        batch_size (int): Number of examples per batch.
        repeat (bool): Run over the dataset again and again.
        shuffle (bool): Visit the examples in a new random order every
            epoch. ``None`` (the default) means ``True`` unless
            ``order_sampler`` is given.
        order_sampler (callable): Chooses the order of each epoch (see
            :class:`~chainerlite.iterators.OrderSampler`); needs
            ``shuffle=None``.

    Raises:
        ValueError: If ``shuffle`` and ``order_sampler`` are both given,
            the dataset is empty, or ``batch_size`` is not positive.

    .. admonition:: Example

        >>> from chainerlite import iterators
        >>> it = iterators.SerialIterator([1, 2, 3, 4, 5], 2, shuffle=False)
        >>> it.next(), it.next(), it.next(), it.epoch, it.is_new_epoch
        ([1, 2], [3, 4], [5, 1], 1, True)

    """

    def __init__(
        self,
        dataset: typing.Any,
        batch_size: int,
        repeat: bool = True,
        shuffle: bool | None = None,
        order_sampler: order_samplers.OrderSampler | None = None,
    ) -> None:
        self._set_dataset(dataset, batch_size, repeat, shuffle, order_sampler)

    def __next__(self):
        dataset = self.dataset
        return [dataset[i] for i in self._pos.advance()]

    def reset(self):
        """Goes back to the start of the first epoch (with a new order)."""
        self._pos.reset()

    def serialize(self, serializer):
        """Saves or loads the position, so training can resume mid-epoch."""
        self._pos.serialize(serializer)
