"""Sum of array elements over given axes."""

from __future__ import annotations

import typing

from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import reshape
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _normalize_axis(axis):
    if axis is None:
        return None
    if isinstance(axis, int):
        return (axis,)
    if isinstance(axis, tuple) and all(isinstance(a, int) for a in axis):
        if len(set(axis)) != len(axis):
            raise ValueError(
                'duplicate value in axis: ({})'.format(', '.join(map(str, axis)))
            )
        return axis
    raise TypeError('None, int or tuple of int are required')


def _check_axis(x_type, axis):
    # Each axis of the (normalized) ``axis`` must be in range for ``x``.
    if axis is None:
        return
    for a in axis:
        if a >= 0:
            type_check.expect(a < x_type.ndim)
        else:
            type_check.expect(-a - 1 < x_type.ndim)


def _unreduce(gy, axis, in_shape, keepdims):
    # Broadcasts the gradient of a reduction back to the input shape.
    ndim = len(in_shape)
    if axis is not None and not keepdims:
        shape = list(gy.shape)
        for a in sorted(a % ndim for a in axis):
            shape.insert(a, 1)
        gy = reshape.reshape(gy, tuple(shape))
    return broadcast.broadcast_to(gy, in_shape)


class Sum(function_node.FunctionNode):
    """Sum of array elements over given axes."""

    def __init__(self, axis=None, keepdims=False):
        self.axis = _normalize_axis(axis)
        self.keepdims = keepdims

    def check_type_forward(self, in_types):
        # Light mode gives the arrays themselves: a float input whose axes
        # are in range passes at once; anything else gets the full check.
        if type(in_types) is type_check.LightTypeInfoTuple and len(in_types) == 1:
            x = in_types[0]
            if x.dtype.kind == 'f' and (
                self.axis is None or all(-x.ndim <= a < x.ndim for a in self.axis)
            ):
                return
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        _check_axis(x_type, self.axis)

    def forward(self, inputs):
        (x,) = inputs
        self._in_shape = x.shape
        y = utils.force_array(x.sum(axis=self.axis, keepdims=self.keepdims))
        if y.dtype != x.dtype:
            y = y.astype(x.dtype)
        return (y,)

    def backward(self, indexes, grad_outputs):
        (gy,) = grad_outputs
        return (_unreduce(gy, self.axis, self._in_shape, self.keepdims),)


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
    return Sum(axis, keepdims).apply((x,))[0]
