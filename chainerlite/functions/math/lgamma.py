"""Logarithm of the absolute value of the gamma function."""

from __future__ import annotations

import typing

from chainerlite.functions.math import _special
from chainerlite.functions.math import digamma

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class LGamma(_special.UnarySpecial):
    name = 'lgamma'
    special_name = 'gammaln'

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        return (gy * digamma.digamma(x),)


def lgamma(x: Variable | NdArray) -> Variable:
    """Elementwise :math:`\\log |\\Gamma(x)|` (needs SciPy on the CPU).

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.
    """
    return LGamma().apply((x,))[0]
