"""Vertical (row-wise) stacking of arrays."""

from __future__ import annotations

import typing

from chainerlite.functions.array import _stack_along

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Vstack(_stack_along.StackAlong):
    """Concatenation of arrays along axis 0, after making them 2-D."""

    _array_function = 'vstack'
    _axis = 0
    _min_ndim = 2


def vstack(xs: typing.Sequence[Variable | NdArray]) -> Variable:
    """Concatenates arrays vertically (row-wise).

    Arrays of two or more axes are concatenated along axis 0;
    one-dimensional arrays of length ``N`` become rows of shape ``(1, N)``
    first, as in :func:`numpy.vstack`.

    Args:
        xs (list of Variable or numpy.ndarray or cupy.ndarray): Input
            variables, of one dtype and one number of axes; their sizes must
            agree on every axis but axis 0 (on all axes when they have at most
            one).

    Returns:
        Variable: The concatenated output variable, with at least two axes.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([1, 2], np.float32)
        >>> F.vstack((x, x + 2)).array
        array([[1., 2.],
               [3., 4.]], dtype=float32)

    """
    return Vstack().apply(xs)[0]
