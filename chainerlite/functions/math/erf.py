"""Elementwise Gauss error function."""

from __future__ import annotations

import math
import typing

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.math import exponential
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable

# NumPy has no erf ufunc; the standard library's is exact to double
# precision, so it is applied element by element in float64.
_erf_cpu = numpy.vectorize(math.erf, otypes=[numpy.float64])


class Erf(function_node.FunctionNode):
    """Elementwise error function."""

    @property
    def label(self):
        return 'erf'

    check_type_forward = type_check.declare_kinds(x='f')

    def forward(self, inputs):
        (x,) = inputs
        self.retain_inputs((0,))
        if backend.get_array_module(x) is numpy:
            return (utils.force_array(_erf_cpu(x), x.dtype),)
        import cupyx.scipy.special

        return (utils.force_array(cupyx.scipy.special.erf(x), x.dtype),)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        return (gy * exponential.exp(-(x**2)) * (2.0 / math.sqrt(math.pi)),)


def erf(x: Variable | NdArray) -> Variable:
    """Elementwise error function.

    .. math::
        \\mathrm{erf}(x) = \\frac{2}{\\sqrt{\\pi}} \\int_0^x e^{-t^2} dt

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.erf(np.array([0., 1., -np.inf])).array.round(4)
        array([ 0.    ,  0.8427, -1.    ])

    """
    return Erf().apply((x,))[0]
