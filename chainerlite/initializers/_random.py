"""Bases shared by the Gaussian and the uniform initializer families."""

from __future__ import annotations

import math
import typing

from chainerlite import backend
from chainerlite import initializer

if typing.TYPE_CHECKING:
    from chainerlite import types


class RandomInitializer(initializer.Initializer):
    """Initializer that draws with a ``scale`` from a random generator.

    Args:
        scale (float): Parameter of the distribution.
        dtype: Data type specifier.
        rng (numpy.random.RandomState or cupy.random.RandomState): Random
            number generator; the array module's global one when ``None``.

    """

    def __init__(
        self, scale: float, dtype: types.DTypeSpec | None = None, rng=None
    ) -> None:
        super().__init__(dtype)
        self.scale = scale
        self.rng = rng

    def _random_state(self, array):
        """Returns ``rng``, or the global generator of the array's module."""
        if self.rng is None:
            return backend.get_array_module(array).random
        return self.rng


class FanScaled(RandomInitializer):
    """Initializer whose width is ``scale * sqrt(_gain / fan)``.

    A subclass names the initializer it delegates to with that width
    (``_distribution``: :class:`~chainerlite.initializers.Normal` or
    :class:`~chainerlite.initializers.Uniform`), the constant ``_gain``,
    and overrides :meth:`_fan` where ``fan`` is not the fan-in.
    """

    _distribution = None
    _gain = None

    def __init__(
        self, scale: float = 1.0, dtype: types.DTypeSpec | None = None, *, rng=None
    ) -> None:
        super().__init__(scale, dtype, rng)

    def _fan(self, fan_in, fan_out):
        return fan_in

    def __call__(self, array):
        self._check_dtype(array)
        fan = self._fan(*initializer.get_fans(array.shape))
        width = self.scale * math.sqrt(self._gain / fan)
        self._distribution(width, rng=self.rng)(array)
