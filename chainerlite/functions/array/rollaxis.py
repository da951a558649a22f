"""Rolling of an axis of an array backwards to a given position."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Rollaxis(function_node.FunctionNode):
    """Rolling of an axis of an array to a given position."""

    def __init__(self, axis, start):
        if not isinstance(axis, int):
            raise TypeError('rollaxis: axis must be int')
        if not isinstance(start, int):
            raise TypeError('rollaxis: start must be int')
        self.axis = axis
        self.start = start

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        axis = type_check.make_variable(self.axis, 'axis')
        start = type_check.make_variable(self.start, 'start')
        if self.axis >= 0:
            type_check.expect(x_type.ndim > axis)
        else:
            type_check.expect(x_type.ndim >= -axis)
        if self.start >= 0:
            type_check.expect(x_type.ndim >= start)
        else:
            type_check.expect(x_type.ndim >= -start)

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self._ndim = x.ndim
        self.retain_inputs(())  # none, as Chainer's node declares
        return (xp.rollaxis(x, self.axis, self.start),)

    def backward(self, indexes, grad_outputs):
        axis = self.axis % self._ndim
        start = self.start if self.start >= 0 else self.start + self._ndim
        # Position the rolled axis took in the output.
        position = start - 1 if start > axis else start
        back = axis + 1 if axis > position else axis
        return (rollaxis(grad_outputs[0], position, back),)


def rollaxis(x: Variable | NdArray, axis, start=0) -> Variable:
    """Rolls an axis of an array backwards until it lies at a given position.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.
        axis (int): The axis to roll.
        start (int): The axis is rolled until it lies before this position
            (``x.ndim`` puts it last).

    Returns:
        Variable: Output variable with the axis moved.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.zeros((2, 3, 4, 5), np.float32)
        >>> F.rollaxis(x, 2).shape
        (4, 2, 3, 5)
        >>> F.rollaxis(x, 1, 4).shape
        (2, 4, 5, 3)

    """
    return Rollaxis(axis, start).apply((x,))[0]
