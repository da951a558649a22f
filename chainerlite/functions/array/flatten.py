"""Flattening of an array into one dimension."""

from __future__ import annotations

import typing

from chainerlite import function_node
from chainerlite.functions.array import reshape
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Flatten(function_node.FunctionNode):
    """Flattening of an array into one dimension."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))

    def forward(self, inputs):
        (x,) = inputs
        self._in_shape = x.shape
        return (x.ravel(),)

    def backward(self, indexes, grad_outputs):
        return (reshape.reshape(grad_outputs[0], self._in_shape),)


def flatten(x: Variable | NdArray) -> Variable:
    """Flattens an array into one dimension, in C order.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.

    Returns:
        Variable: Output variable of shape ``(x.size,)``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[1, 2], [3, 4]], np.float32)
        >>> F.flatten(x).array
        array([1., 2., 3., 4.], dtype=float32)

    """
    return Flatten().apply((x,))[0]
