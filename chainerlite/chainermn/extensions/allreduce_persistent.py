"""Averaging the persistent values (e.g. BatchNormalization statistics)."""

import numpy

from chainerlite import backend
from chainerlite.chainermn.communicators import _memory_utility
from chainerlite.training import extension


def _float_persistents(model):
    """The floating-point array persistents of every link, in name order."""
    arrays = []
    for path, link in sorted(model.namedlinks(), key=lambda item: item[0]):
        for name in sorted(link._persistent):
            value = link.__dict__.get(name)
            if backend._is_array(value) and value.dtype.kind == 'f':
                arrays.append(value)
    return arrays


class AllreducePersistent(extension.Extension):
    """Replaces each floating-point persistent array by its mean over the ranks.

    Ranks that train on different data end with different running
    statistics (``avg_mean``, ``avg_var`` of BatchNormalization); calling
    this (by default once per epoch, before the evaluator) makes them equal
    to their average, all in one allreduce.
    """

    trigger = 1, 'epoch'
    priority = extension.PRIORITY_WRITER + 1  # before the evaluators

    def __init__(self, model, comm):
        self.model = model
        self.comm = comm

    def __call__(self, trainer=None):
        arrays = _float_persistents(self.model)
        if not arrays:
            return
        buffer = _memory_utility.pack(arrays, numpy.float64)
        mean = self.comm.allreduce(buffer) / self.comm.size
        _memory_utility.unpack(mean, arrays)
