"""Interchange of two axes of an array."""

from __future__ import annotations

import typing

import numpy

from chainerlite import function_node
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _expect_axis(x_type, axis, name):
    axis_var = type_check.make_variable(axis, name)
    # NumPy's AxisError, as Chainer's swapaxes raises
    with type_check.invalid_as(numpy.exceptions.AxisError):
        if axis >= 0:
            type_check.expect(x_type.ndim > axis_var)
        else:
            type_check.expect(x_type.ndim >= -axis_var)


class Swapaxes(function_node.FunctionNode):
    """Interchange of two axes of an array."""

    def __init__(self, axis1, axis2):
        if not (isinstance(axis1, int) and isinstance(axis2, int)):
            raise TypeError('swapaxes: axis1 and axis2 must be int')
        self.axis1 = axis1
        self.axis2 = axis2

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        _expect_axis(x_type, self.axis1, 'axis1')
        _expect_axis(x_type, self.axis2, 'axis2')

    def forward(self, inputs):
        (x,) = inputs
        return (x.swapaxes(self.axis1, self.axis2),)

    def backward(self, indexes, grad_outputs):
        return (swapaxes(grad_outputs[0], self.axis1, self.axis2),)


def swapaxes(x: Variable | NdArray, axis1, axis2) -> Variable:
    """Interchanges two axes of an array.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.
        axis1 (int): The first axis (negative values count from the end).
        axis2 (int): The second axis.

    Returns:
        Variable: Output variable whose axes ``axis1`` and ``axis2`` are
        those of ``x`` exchanged.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.zeros((2, 3, 4), np.float32)
        >>> F.swapaxes(x, 0, 2).shape
        (4, 3, 2)

    """
    return Swapaxes(axis1, axis2).apply((x,))[0]
