"""Insertion of a new axis of size one."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.array import reshape
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class ExpandDims(function_node.FunctionNode):
    """Insertion of a new axis of size one."""

    def __init__(self, axis):
        if not isinstance(axis, int):
            raise TypeError('expand_dims: axis must be int')
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        axis = type_check.make_variable(self.axis, 'axis')
        if self.axis >= 0:
            type_check.expect(x_type.ndim >= axis)
        else:
            type_check.expect(x_type.ndim >= -axis - 1)

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self._in_shape = x.shape
        return (xp.expand_dims(x, self.axis),)

    def backward(self, indexes, grad_outputs):
        return (reshape.reshape(grad_outputs[0], self._in_shape),)


def expand_dims(x: Variable | NdArray, axis) -> Variable:
    """Inserts a new axis of size one.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.
        axis (int): Position of the new axis in the output; negative values
            count from the end of the output shape, so ``x.ndim`` and ``-1``
            both append an axis.

    Returns:
        Variable: Output variable with ``x.ndim + 1`` axes.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.zeros((2, 3), np.float32)
        >>> F.expand_dims(x, 1).shape
        (2, 1, 3)
        >>> F.expand_dims(x, -1).shape
        (2, 3, 1)

    """
    return ExpandDims(axis).apply((x,))[0]
