"""Separation of an array into the slices along an axis."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.array import stack
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Separate(function_node.FunctionNode):
    """Separation of an array into its slices along an axis."""

    def __init__(self, axis=0):
        if not isinstance(axis, int):
            raise TypeError('separate: axis must be int')
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        axis = type_check.make_variable(self.axis, 'axis')
        type_check.expect(-x_type.ndim <= axis, axis < x_type.ndim)

    def forward(self, inputs):
        (x,) = inputs
        axis = self.axis % x.ndim
        self._shape = x.shape[:axis] + x.shape[axis + 1 :]
        lead = (slice(None),) * axis
        return tuple(x[lead + (i,)] for i in range(x.shape[axis]))

    def backward(self, indexes, grad_outputs):
        xp = backend.get_array_module(*grad_outputs)
        dtype = next(g.dtype for g in grad_outputs if g is not None)
        gys = [xp.zeros(self._shape, dtype) if g is None else g for g in grad_outputs]
        return (stack.stack(gys, self.axis),)


def separate(x: Variable | NdArray, axis=0) -> tuple[Variable, ...]:
    """Separates an array into its slices along an axis.

    This is the inverse of :func:`stack`.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.
        axis (int): The axis to separate along.

    Returns:
        tuple of Variable: ``x.shape[axis]`` variables, each of the shape of
        ``x`` without ``axis``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
        >>> [y.array.tolist() for y in F.separate(x)]
        [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
        >>> [y.shape for y in F.separate(x, axis=1)]
        [(2,), (2,), (2,)]

    """
    return Separate(axis).apply((x,))
