"""Elementwise complementary error function."""

from __future__ import annotations

import math
import typing

import numpy

from chainerlite.functions.math import _unary
from chainerlite.functions.math import exponential

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable

# The standard library's erfc keeps its relative accuracy in the far tail,
# where 1 - erf(x) would cancel to zero.
_erfc_cpu = numpy.vectorize(math.erfc, otypes=[numpy.float64])


def compute_erfc(xp, x):
    """erfc of a NumPy or CuPy array, in float64 on NumPy."""
    if xp is numpy:
        return _erfc_cpu(x)
    import cupyx.scipy.special

    return cupyx.scipy.special.erfc(x)


class Erfc(_unary.UnaryFloat):
    """Elementwise complementary error function."""

    name = 'erfc'

    def compute(self, xp, x):
        return compute_erfc(xp, x)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        return (gy * exponential.exp(-(x**2)) * (-2.0 / math.sqrt(math.pi)),)


def erfc(x: Variable | NdArray) -> Variable:
    """Elementwise complementary error function.

    .. math::
        \\mathrm{erfc}(x) = 1 - \\mathrm{erf}(x)
        = \\frac{2}{\\sqrt{\\pi}} \\int_x^\\infty e^{-t^2} dt

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.erfc(np.array([0., 1., 10.])).array
        array([1.00000000e+00, 1.57299207e-01, 2.08848758e-45])

    """
    return Erfc().apply((x,))[0]
