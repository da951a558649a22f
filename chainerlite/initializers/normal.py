"""Initializers that draw from a Gaussian distribution."""

import numpy

from chainerlite import backend
from chainerlite.initializers import initializer


class Normal(initializer.Initializer):
    """Draws each element from a Gaussian with mean 0 and deviation ``scale``.

    Args:
        scale (float): Standard deviation of the distribution.
        dtype: Data type specifier.
        rng (numpy.random.RandomState or cupy.random.RandomState): Random
            number generator; the array module's global one when ``None``.

    """

    def __init__(self, scale=0.05, dtype=None, *, rng=None):
        super().__init__(dtype)
        self.scale = scale
        self.rng = rng

    def __call__(self, array):
        self._check_dtype(array)
        rng = self.rng
        if rng is None:
            rng = backend.get_array_module(array).random
        array[...] = rng.normal(loc=0.0, scale=self.scale, size=array.shape)


class LeCunNormal(initializer.Initializer):
    """Gaussian initializer scaled by the fan-in (LeCun 98).

    Each element is drawn from a Gaussian with mean 0 and standard deviation
    :math:`scale \\times \\sqrt{1 / fan_{in}}`, where :math:`fan_{in}` is the
    number of input units (see :func:`get_fans`).

    Args:
        scale (float): Factor of the standard deviation.
        dtype: Data type specifier.
        rng (numpy.random.RandomState or cupy.random.RandomState): Random
            number generator; the array module's global one when ``None``.

    """

    def __init__(self, scale=1.0, dtype=None, *, rng=None):
        super().__init__(dtype)
        self.scale = scale
        self.rng = rng

    def __call__(self, array):
        self._check_dtype(array)
        fan_in, _ = initializer.get_fans(array.shape)
        std = self.scale * numpy.sqrt(1.0 / fan_in)
        Normal(std, rng=self.rng)(array)
