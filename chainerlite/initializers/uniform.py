"""Initializers that draw from uniform distributions."""

from __future__ import annotations

import typing

from chainerlite.initializers import _random

if typing.TYPE_CHECKING:
    from chainerlite import types


class Uniform(_random.RandomInitializer):
    """Draws each element uniformly from ``[-scale, scale]``.

    Args:
        scale (float): Half the width of the interval.
        dtype: Data type specifier.
        rng (numpy.random.RandomState or cupy.random.RandomState): Random
            number generator; the array module's global one when ``None``.

    """

    def __init__(
        self, scale: float = 0.05, dtype: types.DTypeSpec | None = None, *, rng=None
    ) -> None:
        super().__init__(scale, dtype, rng)

    def __call__(self, array):
        self._check_dtype(array)
        rng = self._random_state(array)
        array[...] = rng.uniform(low=-self.scale, high=self.scale, size=array.shape)


class LeCunUniform(_random.FanScaled):
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

    _distribution = Uniform
    _gain = 3.0


class GlorotUniform(_random.FanScaled):
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

    _distribution = Uniform
    _gain = 6.0

    def _fan(self, fan_in, fan_out):
        return fan_in + fan_out


class HeUniform(_random.FanScaled):
    """Uniform initializer for layers followed by ReLU (He 2015).

    Each element is drawn uniformly from :math:`[-s, s]` with
    :math:`s = scale \\times \\sqrt{6 / fan_{in}}` (see :func:`get_fans`).

    Args:
        scale (float): Factor of the bound.
        dtype: Data type specifier.
        rng (numpy.random.RandomState or cupy.random.RandomState): Random
            number generator; the array module's global one when ``None``.

    """

    _distribution = Uniform
    _gain = 6.0
