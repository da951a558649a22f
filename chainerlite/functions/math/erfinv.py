"""Elementwise inverse error function."""

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
# The derivative of erf at 0 is 2 / sqrt(pi); its reciprocal scales the
# derivative of the inverse.
BACKWORDC = math.sqrt(math.pi) / 2


class ErfInv(_special.UnarySpecialOfOutput):
    """Elementwise inverse error function."""

    name = 'erfinv'
    special_name = 'erfinv'
    keeps_input = False  # as Chainer's: the backward reads the output
    # The sign of the derivative of the function it inverts.
    sign = 1.0

    def backward(self, indexes, grad_outputs):
        (y,) = self.get_retained_outputs()
        (gy,) = grad_outputs
        return (gy * exponential.exp(y**2) * (self.sign * BACKWORDC),)


def erfinv(x: Variable | NdArray) -> Variable:
    """Elementwise inverse function of the error function.

    .. math::
        y_i = \\mathrm{erf}^{-1}(x_i)

    .. note::
        As in Chainer, the forward on the CPU needs SciPy; without it, the
        call raises ImportError.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype, with values in :math:`[-1, 1]`.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.
    """
    return ErfInv().apply((x,))[0]
