"""Moving axes of an array to new positions."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _as_axis_tuple(axis):
    if isinstance(axis, int):
        return (axis,)
    if isinstance(axis, tuple) and all(isinstance(a, int) for a in axis):
        return axis
    raise TypeError('moveaxis: int or tuple of int are required')


def _check_unique(axes, ndim, name):
    normalized = [a % ndim for a in axes]
    if len(set(normalized)) != len(normalized):
        raise ValueError(
            'moveaxis: duplicate value in {} axis: ({})'.format(
                name, ', '.join(map(str, axes))
            )
        )


class Moveaxis(function_node.FunctionNode):
    """Moving axes of an array to new positions."""

    def __init__(self, source, destination):
        self.source = _as_axis_tuple(source)
        self.destination = _as_axis_tuple(destination)
        if len(self.source) != len(self.destination):
            raise ValueError(
                'moveaxis: source and destination must have the same number of axes'
            )

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        for axis in self.source + self.destination:
            if axis >= 0:
                type_check.expect(x_type.ndim > axis)
            else:
                type_check.expect(x_type.ndim >= -axis)

    def forward(self, inputs):
        (x,) = inputs
        _check_unique(self.source, x.ndim, 'source')
        _check_unique(self.destination, x.ndim, 'destination')
        self.retain_inputs(())  # none, as Chainer's node declares
        xp = backend.get_array_module(x)
        return (xp.moveaxis(x, self.source, self.destination),)

    def backward(self, indexes, grad_outputs):
        return (moveaxis(grad_outputs[0], self.destination, self.source),)


def moveaxis(x: Variable | NdArray, source, destination) -> Variable:
    """Moves axes of an array to new positions.

    The other axes keep their relative order.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.
        source (int or tuple of int): Original positions of the axes to move;
            they must be unique.
        destination (int or tuple of int): New positions of those axes, as
            many as ``source`` and unique too.

    Returns:
        Variable: Output variable with the axes moved.

    Raises:
        TypeError: If an axis is not an int.
        ValueError: If ``source`` and ``destination`` differ in length or
            repeat an axis.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.zeros((2, 3, 4, 5), np.float32)
        >>> F.moveaxis(x, 0, -1).shape
        (3, 4, 5, 2)
        >>> F.moveaxis(x, (0, 3), (2, 0)).shape
        (5, 3, 2, 4)

    """
    return Moveaxis(source, destination).apply((x,))[0]
