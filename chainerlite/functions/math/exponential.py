"""Elementwise exponential and logarithms (natural, base 2, base 10)."""

from __future__ import annotations

import math
import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Exp(function_node.FunctionNode):
    """Elementwise exponential function."""

    @property
    def label(self):
        return 'exp'

    check_type_forward = type_check.declare_kinds(x='f')

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_outputs((0,))
        return (utils.force_array(xp.exp(x)),)

    def backward(self, indexes, grad_outputs):
        (y,) = self.get_retained_outputs()
        return (y * grad_outputs[0],)


def exp(x: Variable | NdArray) -> Variable:
    """Elementwise exponential function.

    .. math::
        y_i = \\exp(x_i)

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> y = F.exp(np.array([0., 1.]))
        >>> y.array.round(4).tolist()
        [1.0, 2.7183]

    """
    return Exp().apply((x,))[0]


class _Logarithm(function_node.FunctionNode):
    """Base of the logarithms: ``name`` is the label and the ufunc, and
    ``scale`` the factor of ``1 / x`` in the derivative."""

    name = 'log'
    scale = 1.0

    @property
    def label(self):
        return self.name

    check_type_forward = type_check.declare_kinds(x='f')

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        return (utils.force_array(getattr(xp, self.name)(x)),)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        g = grad_outputs[0] / x
        return ((g if self.scale == 1.0 else g * self.scale),)


class Log(_Logarithm):
    """Elementwise natural logarithm function."""


def log(x: Variable | NdArray) -> Variable:
    """Elementwise natural logarithm function.

    .. math::
        y_i = \\ln x_i

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.log(np.array([1., np.e], np.float32)).array
        array([0., 1.], dtype=float32)

    """
    return Log().apply((x,))[0]


class Log2(_Logarithm):
    """Elementwise base-2 logarithm function."""

    name = 'log2'
    scale = 1.0 / math.log(2.0)


def log2(x: Variable | NdArray) -> Variable:
    """Elementwise base-2 logarithm function.

    .. math::
        y_i = \\log_2 x_i

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.log2(np.array([1., 8.], np.float32)).array
        array([0., 3.], dtype=float32)

    """
    return Log2().apply((x,))[0]


class Log10(_Logarithm):
    """Elementwise base-10 logarithm function."""

    name = 'log10'
    scale = 1.0 / math.log(10.0)


def log10(x: Variable | NdArray) -> Variable:
    """Elementwise base-10 logarithm function.

    .. math::
        y_i = \\log_{10} x_i

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.log10(np.array([1., 100.])).array
        array([0., 2.])

    """
    return Log10().apply((x,))[0]
