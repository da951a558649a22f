"""An iterator whose batches are read on one rank and sent to all."""
import numbers

import numpy


def _build_ctrl_msg(stop, is_valid_data_type, is_paired_dataset,
                    is_new_epoch, current_position):
    """The control message that precedes each batch, as an int64 array."""
    return numpy.array([stop, is_valid_data_type, is_paired_dataset,
                        is_new_epoch, current_position], dtype=numpy.int64)


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
        valid = all(isinstance(e, tuple) and all(_is_numeric(v) for v in e)
                    for e in batch)
    else:
        valid = all(_is_numeric(e) for e in batch)
    return valid, paired


class _MultiNodeIterator(object):
    """Rank ``rank_master`` reads each batch; every other rank receives it.

    Attributes of the position (``epoch``, ``epoch_detail``,
    ``is_new_epoch``, ...) are the master's on every rank.
    """

    def __init__(self, actual_iterator, communicator, rank_master):
        self.actual_iterator = actual_iterator
        self.communicator = communicator
        self.rank_master = rank_master
        self.is_master = communicator.rank == rank_master
        self._position = self._read_position()

    def _read_position(self):
        it = self.actual_iterator
        return {name: getattr(it, name, None) for name in (
            'epoch', 'epoch_detail', 'previous_epoch_detail', 'is_new_epoch',
            'current_position')}

    def __iter__(self):
        return self

    def __next__(self):
        comm = self.communicator
        message = None
        if self.is_master:
            try:
                batch = self.actual_iterator.next()
                valid, paired = _check_batch(batch)
                ctrl = _build_ctrl_msg(False, valid, paired,
                                       self.actual_iterator.is_new_epoch,
                                       self.actual_iterator.current_position)
            except StopIteration:
                batch = None
                ctrl = _build_ctrl_msg(True, True, False, False, 0)
            message = ctrl, (batch if ctrl[1] else None), \
                self._read_position()
        ctrl, batch, position = comm.bcast_obj(message, root=self.rank_master)
        stop, valid, _, _, _ = _parse_ctrl_msg(ctrl)
        if not valid:
            raise TypeError(
                'multi-node iterator: the examples must be numbers or arrays, '
                'or tuples of them, to be sent to every rank')
        self._position = position
        if stop:
            raise StopIteration
        return batch

    next = __next__

    def __getattr__(self, name):
        if name in ('epoch', 'epoch_detail', 'previous_epoch_detail',
                    'is_new_epoch', 'current_position'):
            return self.__dict__['_position'][name]
        return getattr(self.__dict__['actual_iterator'], name)

    def reset(self):
        self.actual_iterator.reset()
        self._position = self._read_position()

    def serialize(self, serializer):
        """Only the master's state matters; the others keep their own."""
        self.actual_iterator.serialize(serializer)
        self._position = self._read_position()

    def finalize(self):
        self.actual_iterator.finalize()


def create_multi_node_iterator(actual_iterator, communicator, rank_master=0):
    """Makes every rank see the batches ``actual_iterator`` gives on ``rank_master``.

    Used when the ranks hold parts of one model (e.g. a
    :class:`chainermn.MultiNodeChainList`) and must feed the same samples.
    The examples must be numbers or arrays, or tuples of them.
    """
    return _MultiNodeIterator(actual_iterator, communicator, rank_master)
