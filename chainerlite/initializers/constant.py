"""Initializers that fill arrays with a constant."""

import numpy

from chainerlite import backend
from chainerlite.initializers import initializer


class Constant(initializer.Initializer):
    """Fills an array with a constant value (broadcast to the array).

    Args:
        fill_value (scalar or numpy.ndarray or cupy.ndarray): The value
            assigned to the array; arrays are broadcast to its shape.
        dtype: Data type specifier.

    """

    def __init__(self, fill_value, dtype=None):
        super().__init__(dtype)
        self.fill_value = fill_value

    def __call__(self, array):
        self._check_dtype(array)
        xp = backend.get_array_module(array)
        array[...] = xp.asarray(self.fill_value)


class Zero(Constant):
    """Fills an array with zeros.

    Args:
        dtype: Data type specifier.

    """

    def __init__(self, dtype=None):
        super().__init__(0.0, dtype)


class One(Constant):
    """Fills an array with ones.

    Args:
        dtype: Data type specifier.

    """

    def __init__(self, dtype=None):
        super().__init__(1.0, dtype)


class NaN(Constant):
    """Fills an array with NaN, marking it as not yet initialized.

    Args:
        dtype: Data type specifier.

    """

    def __init__(self, dtype=None):
        super().__init__(numpy.nan, dtype)
