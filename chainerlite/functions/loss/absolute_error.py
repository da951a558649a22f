"""Elementwise absolute error between two arrays."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import utils
from chainerlite.functions.loss import _difference

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class AbsoluteError(_difference.DifferenceLoss):
    """Elementwise absolute error."""

    def forward(self, inputs):
        x0, x1 = inputs
        xp = backend.get_array_module(x0)
        diff = x0 - x1
        self._sign = xp.sign(diff)
        return (utils.force_array(abs(diff), x0.dtype),)

    def _grad_x0(self, gy):
        return gy * self._sign


def absolute_error(x0: Variable | NdArray, x1: Variable | NdArray) -> Variable:
    """Elementwise absolute error function.

    .. math::
        y_i = |x_{0i} - x_{1i}|

    The gradient at :math:`x_{0i} = x_{1i}` is taken as zero.

    Args:
        x0 (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        x1 (Variable or numpy.ndarray or cupy.ndarray): Input of the shape
            and dtype of ``x0``.

    Returns:
        Variable: The absolute errors, with the shape and dtype of ``x0``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x0 = np.array([1., 2., 3.], np.float32)
        >>> x1 = np.array([1., 0., 5.], np.float32)
        >>> F.absolute_error(x0, x1).array
        array([0., 2., 2.], dtype=float32)

    """
    return AbsoluteError().apply((x0, x1))[0]
