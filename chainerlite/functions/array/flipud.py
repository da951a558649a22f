"""Reversal of an array in the up/down direction (axis 0)."""

from __future__ import annotations

import typing

from chainerlite.functions.array import _flip_base

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class FlipUD(_flip_base.FlipBase):
    """Reversal of an array along axis 0."""

    _array_function = 'flipud'
    _min_ndim = 1


def flipud(a: Variable | NdArray) -> Variable:
    """Reverses the order of elements along axis 0 (up/down).

    Args:
        a (Variable or numpy.ndarray or cupy.ndarray): Input variable with at
            least one axis.

    Returns:
        Variable: Output variable of the shape of ``a``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
        >>> F.flipud(x).array
        array([[4., 5., 6.],
               [1., 2., 3.]], dtype=float32)

    """
    return FlipUD().apply((a,))[0]
