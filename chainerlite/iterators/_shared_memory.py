"""Moving examples from worker processes through shared memory.

The buffer has one region of ``shared_mem`` bytes per example of each batch
in flight. A worker copies the NumPy arrays of its example (inside
tuples, lists and dicts) into its region and sends back the example with
each array replaced by a ``_Slot`` (offset, shape, dtype); the main process
copies them out before the region is used again. Arrays that do not fit
(or hold Python objects) travel pickled, as without shared memory.
"""

import numpy

_ALIGN = 16


class _Slot(object):
    __slots__ = ('offset', 'shape', 'dtype')

    def __init__(self, offset, shape, dtype):
        self.offset = offset
        self.shape = shape
        self.dtype = dtype


def _end(used, array):
    # Where an array placed after ``used`` bytes ends.
    return -(-used // _ALIGN) * _ALIGN + array.nbytes


def size_of(example):
    """Bytes of shared memory that the arrays of ``example`` take."""
    used = [0]

    def visit(value):
        if isinstance(value, numpy.ndarray):
            if not value.dtype.hasobject:
                used[0] = _end(used[0], value)
            return value
        return _map(visit, value)

    visit(example)
    return used[0]


def pack(example, region):
    """Copies the arrays of ``example`` into ``region`` (a uint8 array)."""
    used = [0]

    def visit(value):
        if isinstance(value, numpy.ndarray):
            end = _end(used[0], value)
            if value.dtype.hasobject or end > len(region):
                return value
            offset = end - value.nbytes
            target = region[offset:end]
            numpy.copyto(target.view(value.dtype).reshape(value.shape), value)
            used[0] = end
            return _Slot(offset, value.shape, value.dtype)
        return _map(visit, value)

    return visit(example)


def unpack(example, region):
    """Replaces the ``_Slot`` entries of ``example`` with copied arrays."""

    def visit(value):
        if isinstance(value, _Slot):
            size = int(numpy.prod(value.shape)) * value.dtype.itemsize
            raw = region[value.offset : value.offset + size]
            return raw.view(value.dtype).reshape(value.shape).copy()
        return _map(visit, value)

    return visit(example)


def _map(visit, value):
    if type(value) is tuple:
        return tuple(visit(v) for v in value)
    if type(value) is list:
        return [visit(v) for v in value]
    if type(value) is dict:
        return {k: visit(v) for k, v in value.items()}
    return value
