"""Flattening of an array into one dimension."""

from __future__ import annotations

import typing

from chainerlite.functions.array import reshape

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def flatten(x: Variable | NdArray) -> Variable:
    """Flattens an array into one dimension, in C order.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.

    Returns:
        Variable: Output variable of shape ``(x.size,)``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[1, 2], [3, 4]], np.float32)
        >>> F.flatten(x).array
        array([1., 2., 3., 4.], dtype=float32)

    """
    # A reshape, as in Chainer: no node where ``x`` is already flat.
    return reshape.reshape(x, (x.size,))
