"""Reversal of the order of elements along an axis."""

from __future__ import annotations

import typing

from chainerlite import function_node
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _flip(array, axis):
    """Returns a reversed view of ``array`` along ``axis`` (any array module).

    Args:
        array (numpy.ndarray or cupy.ndarray): Input array.
        axis (int): The axis to reverse (negative values count from the end).

    Returns:
        numpy.ndarray or cupy.ndarray: A view of ``array``.
    """
    if not -array.ndim <= axis < array.ndim:
        raise ValueError(
            'flip: axis {} is out of bounds for an array of dimension {}'.format(
                axis, array.ndim
            )
        )
    index = [slice(None)] * array.ndim
    index[axis] = slice(None, None, -1)
    return array[tuple(index)]


class Flip(function_node.FunctionNode):
    """Reversal of the order of elements along an axis."""

    def __init__(self, axis):
        if not isinstance(axis, int):
            raise TypeError('flip: axis must be int')
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        axis = type_check.make_variable(self.axis, 'axis')
        if self.axis >= 0:
            type_check.expect(x_type.ndim > axis)
        else:
            type_check.expect(x_type.ndim >= -axis)

    def forward(self, inputs):
        (x,) = inputs
        return (_flip(x, self.axis),)

    def backward(self, indexes, grad_outputs):
        return (flip(grad_outputs[0], self.axis),)


def flip(x: Variable | NdArray, axis) -> Variable:
    """Reverses the order of elements along an axis.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.
        axis (int): The axis to reverse (negative values count from the
            end).

    Returns:
        Variable: Output variable of the shape of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
        >>> F.flip(x, 1).array
        array([[3., 2., 1.],
               [6., 5., 4.]], dtype=float32)

    """
    return Flip(axis).apply((x,))[0]
