"""Elementwise inverse complementary error function."""

import math

from chainerlite.functions.math import _special
from chainerlite.functions.math import exponential


class ErfcInv(_special.UnarySpecial):
    """Elementwise inverse complementary error function."""

    name = 'erfcinv'
    special_name = 'erfcinv'

    def forward(self, inputs):
        self.retain_outputs((0,))
        return super().forward(inputs)

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        return gy * exponential.exp(y * y) * (-math.sqrt(math.pi) / 2.0),


def erfcinv(x):
    """Elementwise inverse function of the complementary error function.

    .. math::
        y_i = \\mathrm{erfc}^{-1}(x_i)

    .. note::
        As in Chainer, the forward on the CPU needs SciPy; without it, the
        call raises ImportError.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype, with values in :math:`[0, 2]`.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.
    """
    return ErfcInv().apply((x,))[0]
