"""Elementwise exponential minus one."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Expm1(function_node.FunctionNode):
    """Elementwise ``exp(x) - 1``."""

    @property
    def label(self):
        return 'expm1'

    check_type_forward = type_check.declare_kinds(x='f')

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_outputs((0,))
        return (utils.force_array(xp.expm1(x)),)

    def backward(self, indexes, grad_outputs):
        (y,) = self.get_retained_outputs()
        return (grad_outputs[0] * (y + 1.0),)


def expm1(x: Variable | NdArray) -> Variable:
    """Elementwise exponential minus one.

    It is accurate for ``x`` close to zero, where ``exp(x) - 1`` loses
    digits.

    .. math::
        y_i = \\exp(x_i) - 1

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.expm1(np.array([0., 1e-10])).array
        array([0.e+00, 1.e-10])

    """
    return Expm1().apply((x,))[0]
