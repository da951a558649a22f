"""Elementwise scaled complementary error function."""

from __future__ import annotations

import math
import typing

from chainerlite.functions.math import _scipy_special
from chainerlite.functions.math import _special

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


# Whether the forward on the CPU can run (it needs SciPy).
available_cpu = _scipy_special.SCIPY_AVAILABLE


class Erfcx(_special.UnarySpecialOfOutput):
    """Elementwise scaled complementary error function."""

    name = 'erfcx'
    special_name = 'erfcx'

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (y,) = self.get_retained_outputs()
        (gy,) = grad_outputs
        return (gy * (2 * (x * y - math.pi**-0.5)),)


def erfcx(x: Variable | NdArray) -> Variable:
    """Elementwise scaled complementary error function.

    .. math::
        \\mathrm{erfcx}(x) = e^{x^2} \\mathrm{erfc}(x)

    It stays finite where :math:`e^{x^2}` overflows and
    :math:`\\mathrm{erfc}(x)` underflows.

    .. note::
        As in Chainer, the forward on the CPU needs SciPy; without it, the
        call raises ImportError.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.
    """
    return Erfcx().apply((x,))[0]
