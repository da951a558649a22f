"""Horizontal (column-wise) stacking of arrays."""

from __future__ import annotations

import typing

from chainerlite.functions.array import _stack_along

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Hstack(_stack_along.StackAlong):
    """Concatenation of arrays along axis 1 (axis 0 for 1-D arrays)."""

    _array_function = 'hstack'
    _axis = 1
    _min_ndim = 1


def hstack(xs: typing.Sequence[Variable | NdArray]) -> Variable:
    """Concatenates arrays horizontally (column-wise).

    Arrays of two or more axes are concatenated along axis 1, one-dimensional
    arrays along axis 0, and scalars (0-dimensional arrays) form a vector, as
    in :func:`numpy.hstack`.

    Args:
        xs (list of Variable or numpy.ndarray or cupy.ndarray): Input
            variables, of one dtype and one number of axes; with two or more
            axes their sizes must agree on every axis but axis 1.

    Returns:
        Variable: The concatenated output variable.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[1, 2]], np.float32)
        >>> y = np.array([[3]], np.float32)
        >>> F.hstack((x, y)).array
        array([[1., 2., 3.]], dtype=float32)

    """
    return Hstack().apply(xs)[0]
