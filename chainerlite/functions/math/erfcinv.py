"""Elementwise inverse complementary error function."""

from __future__ import annotations

import typing

from chainerlite.functions.math import erfinv

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


# As erfinv's: the scale of the derivative and whether SciPy is installed.
BACKWORDC = erfinv.BACKWORDC
available_cpu = erfinv.available_cpu


class ErfcInv(erfinv.ErfInv):
    """Elementwise inverse complementary error function."""

    name = 'erfcinv'
    special_name = 'erfcinv'
    sign = -1.0


def erfcinv(x: Variable | NdArray) -> Variable:
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
