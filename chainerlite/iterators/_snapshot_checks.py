"""Checking an iterator's position in a snapshot before it is loaded.

The values are read with ``serializers._checks.peek`` (nothing assigned)
and must make sense together: an epoch count and a position that are
integers, the position inside the epoch (``0 <= position < epoch size``),
an order of dataset indexes (a permutation of ``range(len(dataset))`` for
a :class:`~chainerlite.iterators.ShuffleOrderSampler`; any indexes of the
dataset for another order sampler, whose orders may repeat or leave out
examples), and a finite ``previous_epoch_detail`` not past the loaded
``epoch_detail``. Anything else raises a ValueError naming the key, before
the iterator changes.
"""

import math

import numpy

from chainerlite.iterators import order_samplers
from chainerlite.serializers import _checks

# who loads, as the error messages name it
_OWNER = 'iterator.serialize'


def _peek_order(serializer, order):
    # the key Chainer writes, or the one older versions wrote
    try:
        return 'order', _checks.peek(serializer, 'order', order)
    except KeyError:
        return '_order', _checks.peek(serializer, '_order', order)


def _check_order(serializer, key, order, dataset_length, sampler):
    order = numpy.asarray(order)
    if order.dtype.kind not in 'iu' or order.ndim != 1:
        raise _checks.error(_OWNER, serializer, key, 'a 1-d array of indexes', order)
    if isinstance(sampler, order_samplers.ShuffleOrderSampler):
        if not numpy.array_equal(numpy.sort(order), numpy.arange(dataset_length)):
            raise _checks.error(
                _OWNER,
                serializer,
                key,
                'a permutation of range({}) (the dataset\'s length)'.format(
                    dataset_length
                ),
                order,
            )
    elif order.size and not 0 <= int(order.min()) <= int(order.max()) < dataset_length:
        raise _checks.error(
            _OWNER,
            serializer,
            key,
            'indexes of the dataset (0 to {})'.format(dataset_length - 1),
            order,
        )


def check_position(serializer, position, dataset_length, order, sampler):
    """Checks the stored position of an iterator (when loading).

    Args:
        serializer: The (de)serializer at the iterator's keys; nothing is
            checked when it saves.
        position: The current values, to peek into: an object with
            ``current_position``, ``epoch`` and ``previous_epoch_detail``.
        dataset_length (int): The length of the dataset.
        order (numpy.ndarray): The current order (``None`` without one:
            a stored order is then not loaded).
        sampler: The order sampler.

    Raises:
        ValueError: Naming the first key whose value makes no sense.

    """
    if not _checks.loading(serializer):
        return
    epoch = _checks.peek(serializer, 'epoch', position.epoch)
    if not _checks.is_integer(epoch) or epoch < 0:
        raise _checks.error(_OWNER, serializer, 'epoch', 'an integer >= 0', epoch)
    size = dataset_length
    if order is not None:
        key, loaded = _peek_order(serializer, order)
        if loaded is not None:
            _check_order(serializer, key, loaded, dataset_length, sampler)
            size = len(loaded)
    current = _checks.peek(serializer, 'current_position', position.current_position)
    if not _checks.is_integer(current) or not 0 <= current < size:
        raise _checks.error(
            _OWNER,
            serializer,
            'current_position',
            'an integer from 0 to {} (the epoch size less one)'.format(size - 1),
            current,
        )
    previous = position.previous_epoch_detail
    try:
        previous = _checks.peek(
            serializer, 'previous_epoch_detail', -1.0 if previous is None else previous
        )
    except KeyError:  # older snapshots: inferred when loaded
        return
    if previous is None:
        return
    previous = float(previous)
    if math.isnan(previous) or (previous >= 0 and previous > epoch + current / size):
        raise _checks.error(
            _OWNER,
            serializer,
            'previous_epoch_detail',
            'a number not past the loaded epoch_detail, or negative for none',
            previous,
        )
