"""Initializers that fill arrays with constants or an identity matrix."""

from __future__ import annotations

import numpy
import typing

from chainerlite import backend
from chainerlite import initializer
from chainerlite.backends import cuda

if typing.TYPE_CHECKING:
    from chainerlite import types


class Constant(initializer.Initializer):
    """Fills an array with a constant value (broadcast to the array).

    Args:
        fill_value (scalar or numpy.ndarray or cupy.ndarray): The value
            assigned to the array; arrays are broadcast to its shape.
        dtype: Data type specifier.

    Raises:
        ValueError: If ``fill_value`` is neither a scalar nor an array.

    """

    def __init__(
        self,
        fill_value: types.ScalarValue | types.NdArray,
        dtype: types.DTypeSpec | None = None,
    ) -> None:
        if not (
            numpy.isscalar(fill_value)
            or isinstance(fill_value, (numpy.ndarray, cuda.ndarray))
        ):
            # Chainer's type for it (a list is not taken as an array)
            raise ValueError(
                'Constant: fill_value must be a scalar or an array, not {}'.format(
                    type(fill_value).__name__
                )
            )
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

    def __init__(self, dtype: types.DTypeSpec | None = None) -> None:
        super().__init__(0.0, dtype)


class One(Constant):
    """Fills an array with ones.

    Args:
        dtype: Data type specifier.

    """

    def __init__(self, dtype: types.DTypeSpec | None = None) -> None:
        super().__init__(1.0, dtype)


class NaN(Constant):
    """Fills an array with NaN, marking it as not yet initialized.

    Args:
        dtype: Data type specifier.

    """

    def __init__(self, dtype: types.DTypeSpec | None = None) -> None:
        super().__init__(numpy.nan, dtype)


class Identity(initializer.Initializer):
    """Fills a square matrix with a scaled identity matrix.

    Args:
        scale (float): The value of the diagonal elements.
        dtype: Data type specifier.

    Raises:
        ValueError: When called on an array that is not a square matrix.

    """

    def __init__(
        self, scale: float = 1.0, dtype: types.DTypeSpec | None = None
    ) -> None:
        super().__init__(dtype)
        self.scale = scale

    def __call__(self, array):
        self._check_dtype(array)
        shape = array.shape
        if len(shape) != 2 or shape[0] != shape[1]:
            raise ValueError(
                'Identity matrix initialization can only be used for 2D '
                'squared matrices. Actual shape: {}'.format(shape)
            )
        xp = backend.get_array_module(array)
        array[...] = xp.identity(shape[0]) * self.scale
