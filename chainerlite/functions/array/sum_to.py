"""Sum of array elements down to a given (broadcastable) shape."""

from __future__ import annotations

import typing

import numpy

import chainerlite
from chainerlite import function_node
from chainerlite.functions.array import broadcast
from chainerlite.utils import array as array_utils
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class SumTo(function_node.FunctionNode):
    """Sum of array elements down to a given shape."""

    def __init__(self, shape):
        self._shape = tuple(shape)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        ndim = len(self._shape)
        # Chainer 7.8.1 sums over axes that x lacks (numpy's AxisError, or
        # ValueError for one axis twice), or fails on the NumPy scalar that
        # its sum of a 0-d x over no axes gives (TypeError)
        error_type = numpy.exceptions.AxisError
        if type_check.eval(x_type.ndim) == 0 and 1 not in self._shape:
            error_type = TypeError
        with type_check.invalid_as(error_type):
            type_check.expect(x_type.ndim >= ndim)
        for i in range(-ndim, 0):
            if self._shape[i] != 1:
                type_check.expect(x_type.shape[i] == self._shape[i])

    def forward(self, inputs):
        (x,) = inputs
        self._in_shape = x.shape
        return (array_utils.sum_to(x, self._shape),)

    def backward(self, indexes, grad_outputs):
        return (broadcast.broadcast_to(grad_outputs[0], self._in_shape),)


def sum_to(x: Variable | NdArray, shape) -> Variable:
    """Sums the elements of ``x`` so that the result has the given shape.

    This is the reverse of :func:`broadcast_to`: leading axes that ``shape``
    lacks are summed away, and axes where ``shape`` has size one are summed
    with the size kept.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.
        shape (tuple of int): The target shape, which ``x.shape`` must
            broadcast from.

    Returns:
        Variable: Output variable of shape ``shape``. When ``x`` already has
        that shape, ``x`` itself is returned as a variable.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
        >>> F.sum_to(x, (1, 3)).array
        array([[3., 5., 7.]], dtype=float32)
        >>> F.sum_to(x, (2, 1)).array
        array([[ 3.],
               [12.]], dtype=float32)

    """
    if x.shape == tuple(shape):
        return chainerlite.as_variable(x)
    return SumTo(shape).apply((x,))[0]
