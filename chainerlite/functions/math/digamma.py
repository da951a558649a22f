"""Digamma function, the derivative of log-gamma."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite.functions.math import _special
from chainerlite.functions.math import polygamma

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class DiGamma(_special.UnarySpecial):
    name = 'digamma'
    special_name = 'digamma'

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        xp = backend.get_array_module(x)
        one = xp.ones(x.shape, dtype='i')
        return (gy * polygamma.polygamma(one, x),)


def digamma(x: Variable | NdArray) -> Variable:
    """Elementwise digamma :math:`\\psi(x) = \\frac{d}{dx}\\log\\Gamma(x)`
    (needs SciPy on the CPU).

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.
    """
    return DiGamma().apply((x,))[0]
