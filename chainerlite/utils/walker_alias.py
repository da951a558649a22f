"""Sampling from a discrete distribution with Walker's alias method."""

import numpy

from chainerlite import backend
from chainerlite import device_resident
from chainerlite.backends import cuda


def _table(prob):
    """Chainer's alias table of the float32 distribution ``prob``.

    The entries are taken from the least likely up, each into the next
    column; an entry with more than a column's worth of probability first
    completes the columns still open (in the order they were filled),
    giving each one the rest of its share. The share of a column is
    rounded to float32 when stored; the running remainder is float64.
    Second slots never completed hold entry 0.
    """
    n = len(prob)
    threshold = numpy.zeros(n, numpy.float32)
    values = numpy.zeros(2 * n, numpy.int32)
    open_column = 0
    for column, entry in enumerate(numpy.argsort(prob, kind='stable')):
        share = float(prob[entry]) * n
        while share > 1 and open_column < column:
            values[2 * open_column + 1] = entry
            share -= 1.0 - float(threshold[open_column])
            open_column += 1
        threshold[column] = share
        values[2 * column] = entry
    return threshold, values


class WalkerAlias(device_resident.DeviceResident):
    """Draws integers from a fixed discrete distribution in O(1) per sample.

    The table built at construction splits the ``n`` entries into ``n``
    equally likely columns; column ``i`` yields ``values[2 * i]`` with
    probability ``threshold[i]`` and ``values[2 * i + 1]`` otherwise.
    The table is Chainer's, built in float32 from the entries sorted by
    probability, and a sample draws what Chainer's draws: one number of
    the global generator of NumPy (``numpy.random.uniform(0, n)``) or
    CuPy per sample, so a seed gives Chainer's samples. Inside
    :func:`~chainerlite.functions.forget` the draws are replayed by its
    recomputation. It is faster than :func:`numpy.random.choice` for many
    draws, on the CPU and the GPU.

    Args:
        probs (list of float or numpy.ndarray): Non-negative weights of the
            entries ``0, ..., n - 1``; they are normalized by their sum (in
            float32).

    Attributes:
        threshold (numpy.ndarray or cupy.ndarray): float32 array of shape
            ``(n,)``: the probability that column ``i`` yields its first
            entry.
        values (numpy.ndarray or cupy.ndarray): int32 array of shape
            ``(2 * n,)``: the two entries of each column in turn.

    Raises:
        ValueError: If ``probs`` is not a non-empty 1-dimensional sequence of
            non-negative numbers with a positive sum.

    .. admonition:: Example

        >>> import numpy as np
        >>> from chainerlite.utils import WalkerAlias
        >>> sampler = WalkerAlias([0.5, 0.0, 0.5])
        >>> s = sampler.sample((2, 3))
        >>> s.shape, s.dtype, bool(np.all(s != 1))
        ((2, 3), dtype('int32'), True)

    """

    def __init__(self, probs):
        super().__init__()
        if isinstance(probs, cuda.ndarray):
            probs = cuda.to_cpu(probs)
        prob = numpy.array(probs, numpy.float32)
        if prob.ndim != 1 or prob.size == 0:
            raise ValueError(
                'WalkerAlias: probs must be a non-empty 1-dimensional array, '
                'got shape %s' % (prob.shape,)
            )
        total = prob.sum()
        if (prob < 0).any() or not total > 0:
            raise ValueError(
                'WalkerAlias: probs must be non-negative with a positive sum'
            )
        prob /= total
        self.threshold, self.values = _table(prob)

    @property
    def use_gpu(self):
        """bool: ``True`` if the table lives on a GPU (samples are CuPy)."""
        return not isinstance(self.threshold, numpy.ndarray)

    def device_resident_accept(self, visitor):
        """Hands ``visitor`` this sampler and its two tables."""
        super().device_resident_accept(visitor)
        self.threshold = visitor.visit_array(self.threshold)
        self.values = visitor.visit_array(self.values)

    def sample(self, shape):
        """Draws samples with the given shape.

        Args:
            shape (tuple of int): Shape of the result.

        Returns:
            numpy.ndarray or cupy.ndarray: int32 array of entry indices, on
            the device of the table.

        """
        return self.sample_xp(backend.get_array_module(self.threshold), shape)

    def sample_gpu(self, shape):
        """Draws samples of the given shape with CuPy (the table must be on
        the GPU): float32 numbers of CuPy's generator, as Chainer's
        kernel."""
        return self.sample_xp(cuda.cupy, shape)

    def sample_xp(self, xp, shape):
        """Draws samples of the given shape with the array module ``xp``
        (NumPy or CuPy: that of the table).

        Returns:
            numpy.ndarray or cupy.ndarray: int32 array of entry indices.

        """
        n = len(self.threshold)
        shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
        dtype = numpy.float64 if xp is numpy else numpy.float32
        # Imported here: chainerlite.utils is imported before the functions
        # package, which imports chainerlite.utils itself.
        from chainerlite.functions.noise import _random

        u = _random.uniform_below(xp, n, shape, dtype)
        column = u.astype(numpy.int32)
        # a float32 draw may round up to n; Chainer's kernel takes column 0
        column[column >= n] = 0
        fraction = u.astype(numpy.float32) - column.astype(numpy.float32)
        second = self.threshold[column] < fraction
        return self.values[2 * column + second]
