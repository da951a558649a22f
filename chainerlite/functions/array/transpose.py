"""Permutation of array axes."""

from __future__ import annotations

import typing

import numpy

from chainerlite import function_node
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Transpose(function_node.FunctionNode):
    """Permutation of array axes."""

    def __init__(self, axes=None):
        if isinstance(axes, int):  # one axis, as NumPy (and Chainer) take it
            axes = (axes,)
        self.axes = None if axes is None else tuple(axes)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        if self.axes is not None:
            (x_type,) = in_types
            # the types NumPy's transpose raises in Chainer's forward
            with type_check.invalid_as(ValueError):
                type_check.expect(x_type.ndim == len(self.axes))
            with type_check.invalid_as(numpy.exceptions.AxisError):
                for axis in self.axes:
                    type_check.expect(-x_type.ndim <= axis, axis < x_type.ndim)

    def forward(self, inputs):
        (x,) = inputs
        return (x.transpose(self.axes),)

    def backward(self, indexes, grad_outputs):
        if self.axes is None:
            return (transpose(grad_outputs[0]),)
        ndim = len(self.axes)
        inverse = [0] * ndim
        for position, axis in enumerate(self.axes):
            inverse[axis % ndim] = position
        return (transpose(grad_outputs[0], inverse),)


def transpose(x: Variable | NdArray, axes=None) -> Variable:
    """Permutes the axes of an array.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.
        axes (tuple of int): A permutation of ``range(x.ndim)`` (negative
            values count from the end); ``None`` reverses the axes.

    Returns:
        Variable: Output variable whose axis ``i`` is axis ``axes[i]`` of
        ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.zeros((2, 3, 4), np.float32)
        >>> F.transpose(x).shape
        (4, 3, 2)
        >>> F.transpose(x, (1, 0, 2)).shape
        (3, 2, 4)

    """
    return Transpose(axes).apply((x,))[0]
