"""Sampling from a discrete distribution with Walker's alias method."""

import numpy

from chainerlite import backend
from chainerlite.backends import cuda


class WalkerAlias:
    """Draws integers from a fixed discrete distribution in O(1) per sample.

    The table built at construction splits the ``n`` entries into ``n``
    equally likely columns; column ``i`` holds entry ``i`` with probability
    ``threshold[i]`` and its alias ``alias[i]`` otherwise. A sample picks a
    column uniformly, then one of its two entries. It is faster than
    :func:`numpy.random.choice` for many draws, on the CPU and the GPU.

    Args:
        probs (list of float or numpy.ndarray): Non-negative weights of the
            entries ``0, ..., n - 1``; they are normalized by their sum.

    Attributes:
        threshold (numpy.ndarray or cupy.ndarray): float64 array of shape
            ``(n,)``: the probability that column ``i`` yields ``i``.
        alias (numpy.ndarray or cupy.ndarray): int32 array of shape ``(n,)``:
            the entry that column ``i`` yields otherwise.

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
        self.alias = alias

    @property
    def use_gpu(self):
        """bool: ``True`` if the table lives on a GPU (samples are CuPy)."""
        return not isinstance(self.threshold, numpy.ndarray)

    @property
    def device(self):
        """~chainerlite.backend.Device: Where the table lives."""
        return backend.get_device_from_array(self.threshold)

    def to_cpu(self):
        """Moves the table to the host; samples are then NumPy arrays."""
        self.to_device('@numpy')

    def to_gpu(self, device=None):
        """Moves the table to a GPU; samples are then CuPy arrays.

        Args:
            device (int or None): GPU id (the current one, else 0, if None).

        """
        if device is None:
            device = cuda.cupy.cuda.Device().id if cuda.available else 0
        self.to_device(device)

    def to_device(self, device):
        """Moves the table to a device.

        Args:
            device: A device specifier accepted by
                :func:`chainerlite.backend.get_device` (``'@numpy'``,
                ``'@cupy:0'``, an int, ...).

        """
        device = backend.get_device(device)
        self.threshold = device.send(self.threshold)
        self.alias = device.send(self.alias)

    def sample(self, shape):
        """Draws samples with the given shape.

        Args:
            shape (tuple of int): Shape of the result.

        Returns:
            numpy.ndarray or cupy.ndarray: int32 array of entry indices, on
            the device of the table.

        """
        # Imported here: chainerlite.utils is imported before the functions
        # package, which imports chainerlite.utils itself.
        from chainerlite.functions.noise import _random

        xp = backend.get_array_module(self.threshold)
        n = len(self.threshold)
        u = _random.uniform(xp, shape, numpy.float64) * n
        column = xp.minimum(u.astype(numpy.int32), n - 1)
        keep = (u - column) < self.threshold[column]
        return xp.where(keep, column, self.alias[column]).astype(
            numpy.int32, copy=False
        )
