"""Elementwise hyperbolic sine and cosine."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Sinh(function_node.FunctionNode):
    """Elementwise hyperbolic sine."""

    @property
    def label(self):
        return 'sinh'

    check_type_forward = type_check.declare_kinds(x='f')

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        return (utils.force_array(xp.sinh(x)),)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        return (grad_outputs[0] * cosh(x),)


class Cosh(function_node.FunctionNode):
    """Elementwise hyperbolic cosine."""

    @property
    def label(self):
        return 'cosh'

    check_type_forward = type_check.declare_kinds(x='f')

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        return (utils.force_array(xp.cosh(x)),)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        return (grad_outputs[0] * sinh(x),)


def sinh(x: Variable | NdArray) -> Variable:
    """Elementwise hyperbolic sine function.

    .. math::
        y_i = \\sinh x_i = \\frac{e^{x_i} - e^{-x_i}}{2}

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.sinh(np.array([0., 1.])).array.round(4)
        array([0.    , 1.1752])

    """
    return Sinh().apply((x,))[0]


def cosh(x: Variable | NdArray) -> Variable:
    """Elementwise hyperbolic cosine function.

    .. math::
        y_i = \\cosh x_i = \\frac{e^{x_i} + e^{-x_i}}{2}

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.cosh(np.array([0., 1.])).array.round(4)
        array([1.    , 1.5431])

    """
    return Cosh().apply((x,))[0]
