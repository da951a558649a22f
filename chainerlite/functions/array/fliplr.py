"""Reversal of an array in the left/right direction (axis 1)."""

from __future__ import annotations

import typing

from chainerlite.functions.array import _flip_base

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class FlipLR(_flip_base.FlipBase):
    """Reversal of an array along axis 1."""

    _array_function = 'fliplr'
    _min_ndim = 2


def fliplr(a: Variable | NdArray) -> Variable:
    """Reverses the order of elements along axis 1 (left/right).

    Args:
        a (Variable or numpy.ndarray or cupy.ndarray): Input variable with at
            least two axes.

    Returns:
        Variable: Output variable of the shape of ``a``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
        >>> F.fliplr(x).array
        array([[3., 2., 1.],
               [6., 5., 4.]], dtype=float32)

    """
    return FlipLR().apply((a,))[0]
