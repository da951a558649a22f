"""Elementwise inverse of the standard normal CDF."""

from __future__ import annotations

import math
import typing

from chainerlite.functions.math import _scipy_special
from chainerlite.functions.math import _special
from chainerlite.functions.math import exponential

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


# Whether the forward on the CPU can run (it needs SciPy).
available_cpu = _scipy_special.SCIPY_AVAILABLE


class Ndtri(_special.UnarySpecialOfOutput):
    """Elementwise inverse of the standard normal CDF."""

    name = 'ndtri'
    special_name = 'ndtri'
    keeps_input = False  # as Chainer's: the backward reads the output

    def backward(self, indexes, grad_outputs):
        (y,) = self.get_retained_outputs()
        (gy,) = grad_outputs
        # The derivative of the inverse is 1 / pdf(y).
        return (gy * exponential.exp(0.5 * y**2) * math.sqrt(2.0 * math.pi),)


def ndtri(x: Variable | NdArray) -> Variable:
    """Elementwise inverse of the cumulative distribution function of the
    standard normal (its quantile function).

    .. math::
        y_i = \\mathrm{ndtr}^{-1}(x_i)

    .. note::
        As in Chainer, the forward on the CPU needs SciPy; without it, the
        call raises ImportError.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype, with values in :math:`[0, 1]`.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.
    """
    return Ndtri().apply((x,))[0]
