"""Initializers that draw from uniform distributions."""

import math

from chainerlite import backend
from chainerlite.initializers import initializer


class Uniform(initializer.Initializer):
    """Draws each element uniformly from ``[-scale, scale]``.

    Args:
        scale (float): Half the width of the interval.
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
        array[...] = rng.uniform(
            low=-self.scale, high=self.scale, size=array.shape)


class LeCunUniform(initializer.Initializer):
    """Uniform initializer scaled by the fan-in (LeCun 98).

    Each element is drawn uniformly from :math:`[-s, s]` with
    :math:`s = scale \\times \\sqrt{3 / fan_{in}}` (see :func:`get_fans`),
    which gives the deviation of :class:`LeCunNormal`.

    Args:
        scale (float): Factor of the bound.
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
        Uniform(self.scale * math.sqrt(3.0 / fan_in), rng=self.rng)(array)


class GlorotUniform(initializer.Initializer):
    """Uniform initializer scaled by the fan-in and fan-out (Glorot 2010).

    Each element is drawn uniformly from :math:`[-s, s]` with
    :math:`s = scale \\times \\sqrt{6 / (fan_{in} + fan_{out})}` (see
    :func:`get_fans`).

    Args:
        scale (float): Factor of the bound.
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
        fan_in, fan_out = initializer.get_fans(array.shape)
        bound = self.scale * math.sqrt(6.0 / (fan_in + fan_out))
        Uniform(bound, rng=self.rng)(array)


class HeUniform(initializer.Initializer):
    """Uniform initializer for layers followed by ReLU (He 2015).

    Each element is drawn uniformly from :math:`[-s, s]` with
    :math:`s = scale \\times \\sqrt{6 / fan_{in}}` (see :func:`get_fans`).

    Args:
        scale (float): Factor of the bound.
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
        Uniform(self.scale * math.sqrt(6.0 / fan_in), rng=self.rng)(array)
