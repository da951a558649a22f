"""Elementwise logarithm of the standard normal CDF."""

from __future__ import annotations

import math
import typing

from chainerlite.functions.math import _special
from chainerlite.functions.math import erfcx as erfcx_module

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class LogNdtr(_special.UnarySpecial):
    """Elementwise logarithm of the standard normal CDF."""

    name = 'log_ndtr'
    special_name = 'log_ndtr'

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        # pdf(x) / ndtr(x) = sqrt(2 / pi) / erfcx(-x / sqrt(2)): no 0 / 0 in
        # the lower tail. Chainer's nodes, in its order (hooks see them).
        scaled = erfcx_module.erfcx(-x / math.sqrt(2.0))
        return (math.sqrt(2.0 / math.pi) / scaled * gy,)


def log_ndtr(x: Variable | NdArray) -> Variable:
    """Elementwise logarithm of the cumulative distribution function of the
    standard normal.

    .. math::
        y_i = \\log \\mathrm{ndtr}(x_i)

    It is accurate far in the lower tail, where the CDF underflows.

    .. note::
        As in Chainer, the forward on the CPU needs SciPy; without it, the
        call raises ImportError.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.
    """
    return LogNdtr().apply((x,))[0]
