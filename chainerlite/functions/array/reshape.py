"""Reshaping of an array."""

from __future__ import annotations

import chainerlite
import typing
from chainerlite._core import ops_array

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


# Compiled (F.sum's backward applies it with an axis): its check is written
# in C.
Reshape = ops_array.Reshape


def reshape(x: Variable | NdArray, shape) -> Variable:
    """Reshapes an array without copying its data when possible.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.
        shape (tuple of int): The new shape. At most one entry may be ``-1``,
            which stands for the size that keeps the number of elements.

    Returns:
        Variable: Output variable with the elements of ``x`` in the new
        shape. When ``x`` already has that shape, ``x`` itself is returned as
        a variable.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(6, dtype=np.float32)
        >>> F.reshape(x, (2, -1)).array
        array([[0., 1., 2.],
               [3., 4., 5.]], dtype=float32)

    """
    if x.shape == tuple(shape):
        return chainerlite.as_variable(x)
    return ops_array.reshape(x, shape)
