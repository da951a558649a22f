"""Sampling from a discrete distribution with Walker's alias method."""

import numpy

from chainerlite import backend
from chainerlite import device_resident
from chainerlite.backends import cuda


class WalkerAlias(device_resident.DeviceResident):
    """Draws integers from a fixed discrete distribution in O(1) per sample.

    The table built at construction splits the ``n`` entries into ``n``
    equally likely columns; column ``i`` yields ``values[2 * i]`` with
    probability ``threshold[i]`` and ``values[2 * i + 1]`` otherwise (the
    layout of Chainer's table; chainerlite's column ``i`` holds entry ``i``
    first and its alias second). A sample picks a column uniformly, then
    one of its two entries. It is faster than :func:`numpy.random.choice`
    for many draws, on the CPU and the GPU.

    Args:
        probs (list of float or numpy.ndarray): Non-negative weights of the
            entries ``0, ..., n - 1``; they are normalized by their sum.

    Attributes:
        threshold (numpy.ndarray or cupy.ndarray): float64 array of shape
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
        probs = numpy.asarray(probs, numpy.float64)
        if probs.ndim != 1 or probs.size == 0:
            raise ValueError('probs must be a non-empty 1-dimensional array')
        total = probs.sum()
        if (probs < 0).any() or not total > 0:
            raise ValueError('probs must be non-negative with a positive sum')
        n = len(probs)
        scaled = probs * (n / total)
        threshold = numpy.ones(n)
        alias = numpy.arange(n, dtype=numpy.int32)
        small = [i for i in range(n) if scaled[i] < 1]
        large = [i for i in range(n) if scaled[i] >= 1]
        # Each step fills the rest of an under-full column with a share of an
        # over-full entry. Entries left at the end are full up to rounding.
        while small and large:
            s = small.pop()
            g = large.pop()
            threshold[s] = scaled[s]
            alias[s] = g
            scaled[g] -= 1.0 - scaled[s]
            (small if scaled[g] < 1 else large).append(g)
        self.threshold = threshold
        self.values = numpy.stack(
            [numpy.arange(n, dtype=numpy.int32), alias], 1
        ).ravel()

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
        the GPU, see :meth:`sample_xp`)."""
        return self.sample_xp(cuda.cupy, shape)

    def sample_xp(self, xp, shape):
        """Draws samples of the given shape with the array module ``xp``
        (NumPy or CuPy: that of the table).

        Returns:
            numpy.ndarray or cupy.ndarray: int32 array of entry indices.

        """
        # Imported here: chainerlite.utils is imported before the functions
        # package, which imports chainerlite.utils itself.
        from chainerlite.functions.noise import _random

        n = len(self.threshold)
        u = _random.uniform(xp, shape, numpy.float64) * n
        column = xp.minimum(u.astype(numpy.int32), n - 1)
        second = (u - column) >= self.threshold[column]
        return self.values[2 * column + second]
