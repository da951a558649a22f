"""Reshaping of an array."""

from __future__ import annotations

import chainerlite
import typing
from chainerlite import function_node
from chainerlite import utils
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Reshape(function_node.FunctionNode):
    """Reshaping of an array."""

    def __init__(self, shape):
        self.shape = tuple(shape)
        if self.shape.count(-1) > 1:
            raise ValueError('Shapes can only specify one unknown dimension.')

    def check_type_forward(self, in_types):
        # Light mode gives the arrays themselves: an input of the size of a
        # shape without -1 passes at once; anything else gets the full check.
        if (
            type(in_types) is type_check.LightTypeInfoTuple
            and len(in_types) == 1
            and -1 not in self.shape
            and in_types[0].size == utils.size_of_shape(self.shape)
        ):
            return
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        known_size = utils.size_of_shape(d for d in self.shape if d != -1)
        if -1 in self.shape:
            if known_size != 0:
                type_check.expect(x_type.size % known_size == 0)
        else:
            type_check.expect(x_type.size == known_size)

    def forward(self, inputs):
        (x,) = inputs
        self._in_shape = x.shape
        return (x.reshape(self.shape),)

    def backward(self, indexes, grad_outputs):
        return (reshape(grad_outputs[0], self._in_shape),)


def reshape(x: Variable | NdArray, shape) -> Variable:
    """Reshapes an array without copying its data when possible.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.
        shape (tuple of int): The new shape. At most one entry may be ``-1``,
            which stands for the size that keeps the number of elements.

    Returns:
        Variable: Output variable with the elements of ``x`` in the new
        shape. When ``x`` already has that shape, ``x`` itself is returned as
        a variable.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(6, dtype=np.float32)
        >>> F.reshape(x, (2, -1)).array
        array([[0., 1., 2.],
               [3., 4., 5.]], dtype=float32)

    """
    if x.shape == tuple(shape):
        return chainerlite.as_variable(x)
    return Reshape(shape).apply((x,))[0]
