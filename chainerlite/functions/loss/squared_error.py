"""Elementwise squared error between two arrays."""

from __future__ import annotations

import typing

from chainerlite import utils
from chainerlite.functions.loss import _difference

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class SquaredError(_difference.DifferenceLoss):
    """Elementwise squared error."""

    def forward(self, inputs):
        x0, x1 = inputs
        self.retain_inputs((0, 1))
        diff = x0 - x1
        return (utils.force_array(diff * diff, x0.dtype),)

    def _grad_x0(self, gy):
        x0, x1 = self.get_retained_inputs()
        return gy * 2 * (x0 - x1)  # Chainer's nodes, which hooks see


def squared_error(x0: Variable | NdArray, x1: Variable | NdArray) -> Variable:
    """Elementwise squared error function.

    .. math::
        y_i = (x_{0i} - x_{1i})^2

    Args:
        x0 (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        x1 (Variable or numpy.ndarray or cupy.ndarray): Input of the shape
            and dtype of ``x0``.

    Returns:
        Variable: The squared errors, with the shape and dtype of ``x0``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x0 = np.array([1., 2., 3.], np.float32)
        >>> x1 = np.array([1., 0., 0.], np.float32)
        >>> F.squared_error(x0, x1).array
        array([0., 4., 9.], dtype=float32)

    """
    return SquaredError().apply((x0, x1))[0]


def squared_difference(x1: Variable | NdArray, x2: Variable | NdArray) -> Variable:
    """Squared difference of input variables.

    .. math::
        y_i = (x_{1,i} - x_{2,i})^2

    It is :func:`squared_error` (the node ``SquaredError``) under Chainer's
    other argument names.

    Args:
        x1 (Variable or numpy.ndarray or cupy.ndarray): Input variable of a
            floating point dtype.
        x2 (Variable or numpy.ndarray or cupy.ndarray): Input variable of the
            shape and dtype of ``x1``.

    Returns:
        Variable: ``(x1 - x2) ** 2`` elementwise, with the shape and dtype of
        the inputs.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x1 = np.array([1., 2., 3.], np.float32)
        >>> x2 = np.array([3., 2., 1.], np.float32)
        >>> F.squared_difference(x1, x2).array
        array([4., 0., 4.], dtype=float32)

    """
    return squared_error(x1, x2)
