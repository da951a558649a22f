"""Elementwise cumulative distribution function of the standard normal."""

from __future__ import annotations

import math
import typing

from chainerlite.functions.math import _unary
from chainerlite.functions.math import erfc
from chainerlite.functions.math import exponential

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Ndtr(_unary.UnaryFloat):
    """Elementwise standard normal CDF."""

    name = 'ndtr'

    def compute(self, xp, x):
        # erfc(-x / sqrt(2)) / 2 stays accurate in the lower tail, where
        # (1 + erf(x / sqrt(2))) / 2 would cancel.
        return 0.5 * erfc.compute_erfc(xp, x * (-1.0 / math.sqrt(2.0)))

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        return (gy * exponential.exp(-0.5 * x**2) * (1.0 / math.sqrt(2.0 * math.pi)),)


def ndtr(x: Variable | NdArray) -> Variable:
    """Elementwise cumulative distribution function of the standard normal.

    .. math::
        \\mathrm{ndtr}(x) = \\frac{1}{\\sqrt{2\\pi}} \\int_{-\\infty}^x
        e^{-t^2/2} dt = \\frac{1}{2} \\mathrm{erfc}(-x / \\sqrt{2})

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.ndtr(np.array([0., 1.96])).array.round(4)
        array([0.5  , 0.975])

    """
    return Ndtr().apply((x,))[0]
