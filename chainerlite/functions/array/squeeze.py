"""Removal of axes of size one."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.array import reshape
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Squeeze(function_node.FunctionNode):
    """Removal of axes of size one."""

    def __init__(self, axis=None):
        if (
            axis is None
            or isinstance(axis, tuple)
            and all(isinstance(a, int) for a in axis)
        ):
            self.axis = axis
        elif isinstance(axis, int):
            self.axis = (axis,)
        else:
            raise TypeError('squeeze: axis must be None, int or tuple of ints')

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        for axis in self.axis or ():
            if axis >= 0:
                type_check.expect(x_type.ndim > axis)
            else:
                type_check.expect(x_type.ndim >= -axis)

    def forward(self, inputs):
        (x,) = inputs
        for axis in self.axis or ():
            # A ValueError, as in Chainer (the axis itself is valid).
            if x.shape[axis] != 1:
                raise ValueError(
                    'squeeze: axis {} has size {}, not one'.format(axis, x.shape[axis])
                )
        xp = backend.get_array_module(x)
        self._in_shape = x.shape
        return (xp.squeeze(x, self.axis),)

    def backward(self, indexes, grad_outputs):
        return (reshape.reshape(grad_outputs[0], self._in_shape),)


def argone(iterable):
    """Returns the positions of the ones in ``iterable`` (a shape, say).

    Raises:
        ValueError: If an element is not an int.
    """
    positions = []
    for i, n in enumerate(iterable):
        if not isinstance(n, int):
            raise ValueError('argone: elements in iterable must be int')
        if n == 1:
            positions.append(i)
    return positions


def squeeze(x: Variable | NdArray, axis=None) -> Variable:
    """Removes axes of size one.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.
        axis (None, int or tuple of int): The axes to remove; each must have
            size one. ``None`` removes every axis of size one.

    Returns:
        Variable: Output variable with the same elements and fewer axes.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.zeros((1, 2, 1, 3), np.float32)
        >>> F.squeeze(x).shape
        (2, 3)
        >>> F.squeeze(x, axis=(0, 2)).shape
        (2, 3)
        >>> F.squeeze(x, axis=-2).shape
        (1, 2, 3)

    """
    return Squeeze(axis).apply((x,))[0]
