"""Iterators that shuffle in the same order on every rank."""

import numpy

from chainerlite.iterators import order_samplers


def create_synchronized_iterator(actual_iterator, communicator):
    """Makes ``actual_iterator`` give the same batches on every rank.

    Rank 0 draws a seed and broadcasts it; the iterator (which must have a
    shuffling ``order_sampler``, as ``SerialIterator(shuffle=True)`` has)
    then shuffles with a generator seeded by it and starts over, so every
    rank sees the same order of a dataset that every rank holds whole.
    """
    seed = communicator.bcast_obj(
        numpy.random.randint(0, 2**31) if communicator.rank == 0 else None
    )
    position = getattr(actual_iterator, '_pos', None)
    if position is None or not isinstance(
        position.order_sampler, order_samplers.ShuffleOrderSampler
    ):
        raise TypeError(
            'create_synchronized_iterator: the iterator must shuffle with a '
            'ShuffleOrderSampler (e.g. SerialIterator(..., shuffle=True)), '
            'not {!r}'.format(actual_iterator)
        )
    position.order_sampler = order_samplers.ShuffleOrderSampler(
        numpy.random.RandomState(seed)
    )
    actual_iterator.reset()
    return actual_iterator
