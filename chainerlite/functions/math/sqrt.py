"""Elementwise square root and reciprocal square root."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Sqrt(function_node.FunctionNode):
    """Elementwise square root."""

    @property
    def label(self):
        return 'sqrt'

    check_type_forward = type_check.declare_kinds(x='f')

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_outputs((0,))
        return (utils.force_array(xp.sqrt(x)),)

    def backward(self, indexes, grad_outputs):
        (y,) = self.get_retained_outputs()
        return (grad_outputs[0] / (y * 2.0),)


def sqrt(x: Variable | NdArray) -> Variable:
    """Elementwise square root function.

    .. math::
        y_i = \\sqrt{x_i}

    Negative inputs give NaN, as in NumPy.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.sqrt(np.array([4., 9.], np.float32)).array
        array([2., 3.], dtype=float32)

    """
    return Sqrt().apply((x,))[0]


class Reciprocal(function_node.FunctionNode):
    """``1 / x`` of the square root; its gradient is a node of its own whose
    second order is written out, so zeros and infinities give Chainer's
    infinities and zeros (differentiating ``-gy / (x * x)`` as a quotient
    meets ``0 * inf``)."""

    @property
    def label(self):
        return '1.0 / _'

    def forward(self, inputs):
        (x,) = inputs
        self.retain_inputs((0,))
        return (utils.force_array(x.dtype.type(1) / x),)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        return ReciprocalGrad().apply((x, grad_outputs[0]))


class ReciprocalGrad(function_node.FunctionNode):
    """``-gy / x**2``, the gradient of ``1 / x``."""

    @property
    def label(self):
        return 'DivFromConstantGrad'  # Chainer's gradient node of ``1.0 / _``

    def forward(self, inputs):
        x, gy = inputs
        self.retain_inputs((0, 1))
        return (utils.force_array(-gy / (x**2)),)

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        (g,) = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(g * 2.0 * gy / (x**3))
        if 1 in indexes:
            ret.append(g * -1.0 / (x**2))
        return tuple(ret)


def rsqrt(x: Variable | NdArray) -> Variable:
    """Elementwise reciprocal square root function.

    .. math::
        y_i = {1 \\over \\sqrt{x_i}}

    It is computed as ``1 / sqrt(x)``, so a bad input is reported by
    :func:`sqrt`.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.rsqrt(np.array([4., 0.25], np.float32)).array
        array([0.5, 2. ], dtype=float32)

    """
    return Reciprocal().apply((sqrt(x),))[0]
