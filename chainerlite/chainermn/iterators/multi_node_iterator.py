"""An iterator whose batches are read on one rank and sent to all."""

import numbers

import numpy


def _build_ctrl_msg(
    stop, is_valid_data_type, is_paired_dataset, is_new_epoch, current_position
):
    """The control message that precedes each batch, as an int64 array."""
    return numpy.array(
        [stop, is_valid_data_type, is_paired_dataset, is_new_epoch, current_position],
        dtype=numpy.int64,
    )


def _parse_ctrl_msg(msg):
    """``(stop, is_valid_data_type, is_paired_dataset, is_new_epoch,
    current_position)`` from a control message."""
    stop, valid, paired, new_epoch, position = (int(v) for v in msg)
    return bool(stop), bool(valid), bool(paired), bool(new_epoch), position


def _is_numeric(value):
    return isinstance(value, (numbers.Number, numpy.ndarray, numpy.generic))


def _check_batch(batch):
    """``(valid, paired)``: examples are arrays/numbers, or tuples of them."""
    paired = bool(batch) and isinstance(batch[0], tuple)
    if paired:
        valid = all(
            isinstance(e, tuple) and all(_is_numeric(v) for v in e) for e in batch
        )
    else:
        valid = all(_is_numeric(e) for e in batch)
    return valid, paired


class _MultiNodeIterator(object):
    """Rank ``rank_master`` reads each batch; every other rank receives it.

    The other ranks advance their own iterator too (over a dataset of the
    same length, e.g. one made by
    :func:`chainermn.datasets.create_empty_dataset`), so the position
    (``epoch``, ``epoch_detail``, ``is_new_epoch``, serialization) is the
    same on every rank; only the master's examples are used.
    """

    def __init__(self, actual_iterator, communicator, rank_master):
        self.actual_iterator = actual_iterator
        self.communicator = communicator
        self.rank_master = rank_master
        self.is_master = communicator.rank == rank_master

    def __iter__(self):
        return self

    def __next__(self):
        ctrl = batch = None
        try:
            batch = self.actual_iterator.next()
            stop = False
        except StopIteration:
            stop = True
        if self.is_master:
            valid, paired = _check_batch(batch) if not stop else (True, False)
            ctrl = _build_ctrl_msg(
                stop,
                valid,
                paired,
                getattr(self.actual_iterator, 'is_new_epoch', False),
                getattr(self.actual_iterator, 'current_position', 0),
            )
            if not valid:
                batch = None
        ctrl, batch = self.communicator.bcast_obj((ctrl, batch), root=self.rank_master)
        stop, valid, _, _, _ = _parse_ctrl_msg(ctrl)
        if not valid:
            raise TypeError(
                'multi-node iterator: the examples must be numbers or arrays, '
                'or tuples of them, to be sent to every rank'
            )
        if stop:
            raise StopIteration
        return batch

    next = __next__

    def __getattr__(self, name):
        return getattr(self.__dict__['actual_iterator'], name)

    def reset(self):
        self.actual_iterator.reset()

    def serialize(self, serializer):
        self.actual_iterator.serialize(serializer)

    def finalize(self):
        self.actual_iterator.finalize()


def create_multi_node_iterator(actual_iterator, communicator, rank_master=0):
    """Makes every rank see the batches ``actual_iterator`` gives on ``rank_master``.

    Used when the ranks hold parts of one model (e.g. a
    :class:`chainermn.MultiNodeChainList`) and must feed the same samples.
    The examples must be numbers or arrays, or tuples of them.
    """
    return _MultiNodeIterator(actual_iterator, communicator, rank_master)
