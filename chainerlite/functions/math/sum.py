"""Sum of array elements over given axes."""

from __future__ import annotations

import typing

from chainerlite._core import facts, ops_array
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import reshape
from chainerlite.functions.array import sum_to as sum_to_module

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


# F.average normalizes and checks its axis as F.sum does.
_normalize_axis = ops_array.normalize_axis
_check_axis = facts.expect_axes


def _unreduce(gy, axis, in_shape, keepdims):
    # Broadcasts the gradient of a reduction back to the input shape.
    ndim = len(in_shape)
    if axis is not None and not keepdims:
        shape = list(gy.shape)
        for a in sorted(a % ndim for a in axis):
            shape.insert(a, 1)
        gy = reshape.reshape(gy, tuple(shape))
    return broadcast.broadcast_to(gy, in_shape)


# Compiled (every loss is a sum): its check and backward are written in C.
Sum = ops_array.Sum


def sum(x: Variable | NdArray, axis=None, keepdims=False) -> Variable:
    """Sum of array elements over given axes.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        axis (None, int or tuple of int): Axes along which the elements are
            summed. ``None`` sums all the elements.
        keepdims (bool): If ``True``, the summed axes are kept with size one.

    Returns:
        Variable: Output variable with the dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
        >>> F.sum(x).array
        array(15., dtype=float32)
        >>> F.sum(x, axis=0).array
        array([3., 5., 7.], dtype=float32)
        >>> F.sum(x, axis=1, keepdims=True).array
        array([[ 3.],
               [12.]], dtype=float32)

    """
    return ops_array.sum(x, axis, keepdims)


# Chainer defines sum_to and its node in this module.
SumTo = sum_to_module.SumTo
sum_to = sum_to_module.sum_to
