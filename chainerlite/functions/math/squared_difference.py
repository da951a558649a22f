"""Elementwise squared difference of two variables."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class SquaredDifference(function_node.FunctionNode):
    """Elementwise ``(x1 - x2) ** 2``."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x1', 'x2'))
        type_check.expect(
            in_types[0].dtype.kind == 'f',
            in_types[0].dtype == in_types[1].dtype,
            in_types[0].shape == in_types[1].shape,
        )

    def forward(self, inputs):
        x1, x2 = inputs
        xp = backend.get_array_module(x1, x2)
        self.retain_inputs((0, 1))
        return (utils.force_array(xp.square(x1 - x2), x1.dtype),)

    def backward(self, indexes, grad_outputs):
        x1, x2 = self.get_retained_inputs()
        gx1 = grad_outputs[0] * (x1 - x2) * 2.0
        return gx1, -gx1


def squared_difference(x1: Variable | NdArray, x2: Variable | NdArray) -> Variable:
    """Squared difference of input variables.

    .. math::
        y_i = (x_{1,i} - x_{2,i})^2

    Args:
        x1 (Variable or numpy.ndarray or cupy.ndarray): Input variable of a
            floating point dtype.
        x2 (Variable or numpy.ndarray or cupy.ndarray): Input variable of the
            shape and dtype of ``x1``.

    Returns:
        Variable: ``(x1 - x2) ** 2`` elementwise, with the shape and dtype of
        the inputs.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x1 = np.array([1., 2., 3.], np.float32)
        >>> x2 = np.array([3., 2., 1.], np.float32)
        >>> F.squared_difference(x1, x2).array
        array([4., 0., 4.], dtype=float32)

    """
    return SquaredDifference().apply((x1, x2))[0]
