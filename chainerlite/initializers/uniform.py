"""Initializer that draws from a uniform distribution."""

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
