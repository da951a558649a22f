"""Elementwise natural logarithm of one plus the input."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Log1p(function_node.FunctionNode):
    """Elementwise ``log(1 + x)``."""

    @property
    def label(self):
        return 'log1p'

    check_type_forward = type_check.declare_kinds(x='f')

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        return (utils.force_array(xp.log1p(x)),)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        return (grad_outputs[0] / (x + 1.0),)


def log1p(x: Variable | NdArray) -> Variable:
    """Elementwise natural logarithm of one plus the input.

    It is accurate for ``x`` close to zero, where ``log(1 + x)`` loses digits.

    .. math::
        y_i = \\ln(1 + x_i)

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.log1p(np.array([0., 1e-10])).array
        array([0.e+00, 1.e-10])

    """
    return Log1p().apply((x,))[0]
