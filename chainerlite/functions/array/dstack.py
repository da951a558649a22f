"""Depth-wise stacking of arrays (along the third axis)."""

from __future__ import annotations

import typing

from chainerlite.functions.array import _stack_along

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Dstack(_stack_along.StackAlong):
    """Concatenation of arrays along axis 2, after making them 3-D."""

    _array_function = 'dstack'
    _axis = 2
    _min_ndim = 3


def dstack(xs: typing.Sequence[Variable | NdArray]) -> Variable:
    """Concatenates arrays depth-wise (along the third axis).

    Arrays of three or more axes are concatenated along axis 2; arrays of
    shape ``(M, N)`` become ``(M, N, 1)``, ``(N,)`` becomes ``(1, N, 1)``
    and scalars ``(1, 1, 1)`` first, as in :func:`numpy.dstack`.

    Args:
        xs (list of Variable or numpy.ndarray or cupy.ndarray): Input
            variables, of one dtype and one number of axes; their sizes must
            agree on every axis but axis 2 (on all axes when they have at most
            two).

    Returns:
        Variable: The concatenated output variable, with at least three axes.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.zeros((2, 3), np.float32)
        >>> F.dstack((x, x)).shape
        (2, 3, 2)

    """
    return Dstack().apply(xs)[0]
