"""Initializers that draw from a Gaussian distribution."""

from __future__ import annotations

import typing

from chainerlite.initializers import _random

if typing.TYPE_CHECKING:
    from chainerlite import types


class Normal(_random.RandomInitializer):
    """Draws each element from a Gaussian with mean 0 and deviation ``scale``.

    Args:
        scale (float): Standard deviation of the distribution.
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
        array[...] = rng.normal(loc=0.0, scale=self.scale, size=array.shape)


class LeCunNormal(_random.FanScaled):
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

    _distribution = Normal
    _gain = 1.0


class GlorotNormal(_random.FanScaled):
    """Gaussian initializer scaled by the fan-in and fan-out (Glorot 2010).

    Each element is drawn from a Gaussian with mean 0 and standard deviation
    :math:`scale \\times \\sqrt{2 / (fan_{in} + fan_{out})}` (see
    :func:`get_fans`).

    Args:
        scale (float): Factor of the standard deviation.
        dtype: Data type specifier.
        rng (numpy.random.RandomState or cupy.random.RandomState): Random
            number generator; the array module's global one when ``None``.

    """

    _distribution = Normal
    _gain = 2.0

    def _fan(self, fan_in, fan_out):
        return fan_in + fan_out


class HeNormal(_random.FanScaled):
    """Gaussian initializer for layers followed by ReLU (He 2015).

    Each element is drawn from a Gaussian with mean 0 and standard deviation
    :math:`scale \\times \\sqrt{2 / fan}`, where :math:`fan` is the fan-in
    or the fan-out of the array (see :func:`get_fans`).

    Args:
        scale (float): Factor of the standard deviation.
        dtype: Data type specifier.
        fan_option (str): ``'fan_in'`` or ``'fan_out'``: which fan
            scales the deviation.
        rng (numpy.random.RandomState or cupy.random.RandomState): Random
            number generator; the array module's global one when ``None``.

    Raises:
        ValueError: When called with a ``fan_option`` other than the two
            above.

    """

    _distribution = Normal
    _gain = 2.0

    def __init__(
        self,
        scale: float = 1.0,
        dtype: types.DTypeSpec | None = None,
        fan_option: str = 'fan_in',
        *,
        rng=None,
    ) -> None:
        super().__init__(scale, dtype, rng=rng)
        self.fan_option = fan_option

    def _fan(self, fan_in, fan_out):
        if self.fan_option == 'fan_in':
            return fan_in
        if self.fan_option == 'fan_out':
            return fan_out
        raise ValueError(
            'fan_option should be either \'fan_in\' or \'fan_out\', got {!r}'.format(
                self.fan_option
            )
        )
