"""Mean squared error between two arrays."""

from __future__ import annotations

import typing

from chainerlite import utils
from chainerlite.functions.array import broadcast
from chainerlite.functions.loss import _count
from chainerlite.functions.loss import _difference

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class MeanSquaredError(_difference.DifferenceLoss):
    """Mean squared error (Euclidean loss)."""

    def forward(self, inputs):
        x0, x1 = inputs
        self.retain_inputs((0, 1))
        diff = (x0 - x1).ravel()
        loss = _count.divide_by_count(diff.dot(diff), diff.size, diff.dtype)
        return (utils.force_array(loss, x0.dtype),)

    def _grad_x0(self, gy):
        x0, x1 = self.get_retained_inputs()
        return broadcast.broadcast_to(gy, x0.shape) * (x0 - x1) * (2.0 / x0.size)


def mean_squared_error(x0: Variable | NdArray, x1: Variable | NdArray) -> Variable:
    """Mean squared error function.

    It computes the mean of the squared differences of two arrays of the
    same shape:

    .. math::
        \\frac{1}{N} \\sum_i (x_{0i} - x_{1i})^2

    where :math:`N` is the number of elements.

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
        >>> y = F.mean_squared_error(x0, x1)
        >>> y.shape, y.dtype, round(float(y.array), 4)
        ((), dtype('float32'), 4.3333)

    """
    return MeanSquaredError().apply((x0, x1))[0]
