"""Elementwise square."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Square(function_node.FunctionNode):
    """Elementwise square."""

    @property
    def label(self):
        return 'square'

    check_type_forward = type_check.declare_kinds(x='f')

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        return (utils.force_array(xp.square(x)),)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        return (grad_outputs[0] * x * 2.0,)


def square(x: Variable | NdArray) -> Variable:
    """Elementwise square function.

    .. math::
        y_i = x_i ^ 2

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.square(np.array([-2., 3.], np.float32)).array
        array([4., 9.], dtype=float32)

    """
    return Square().apply((x,))[0]
