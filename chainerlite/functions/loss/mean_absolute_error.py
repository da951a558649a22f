"""Mean absolute error between two arrays."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import utils
from chainerlite.functions.array import broadcast
from chainerlite.functions.loss import _difference

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class MeanAbsoluteError(_difference.DifferenceLoss):
    """Mean absolute error."""

    def forward(self, inputs):
        x0, x1 = inputs
        xp = backend.get_array_module(x0)
        diff = x0 - x1
        self._sign = xp.sign(diff)
        # mean accumulates float16 in float32: a float16 sum overflows.
        loss = abs(diff).mean()
        return (utils.force_array(loss, x0.dtype),)

    def _grad_x0(self, gy):
        return broadcast.broadcast_to(gy, self._sign.shape) * (
            self._sign * self._sign.dtype.type(1.0 / self._sign.size)
        )


def mean_absolute_error(x0: Variable | NdArray, x1: Variable | NdArray) -> Variable:
    """Mean absolute error function.

    It computes the mean of the absolute differences of two arrays of the
    same shape:

    .. math::
        \\frac{1}{N} \\sum_i |x_{0i} - x_{1i}|

    where :math:`N` is the number of elements. The gradient at
    :math:`x_{0i} = x_{1i}` is taken as zero.

    Args:
        x0 (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        x1 (Variable or numpy.ndarray or cupy.ndarray): Input of the shape
            and dtype of ``x0``.

    Returns:
        Variable: A scalar (0-dimensional) variable of the dtype of ``x0``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x0 = np.array([1., 2., 3.], np.float32)
        >>> x1 = np.array([1., 0., 0.], np.float32)
        >>> y = F.mean_absolute_error(x0, x1)
        >>> y.shape, y.dtype, round(float(y.array), 4)
        ((), dtype('float32'), 1.6667)

    """
    return MeanAbsoluteError().apply((x0, x1))[0]
