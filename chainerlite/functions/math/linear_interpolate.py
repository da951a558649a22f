"""Elementwise linear interpolation between two variables."""

from __future__ import annotations

import typing

from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions import _grad_of
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class LinearInterpolate(function_node.FunctionNode):
    """Elementwise ``p * x + (1 - p) * y``."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('p', 'x', 'y'))
        p_type, x_type, y_type = in_types
        type_check.expect(
            p_type.dtype.kind == 'f',
            x_type.dtype == p_type.dtype,
            y_type.dtype == p_type.dtype,
            p_type.shape == x_type.shape,
            p_type.shape == y_type.shape,
        )

    def forward(self, inputs):
        p, x, y = inputs
        self.retain_inputs((0, 1, 2))
        return (utils.force_array(p * x + (1.0 - p) * y, p.dtype),)

    def backward(self, indexes, grad_outputs):
        p, x, y = self.get_retained_inputs()
        (g,) = grad_outputs
        gx = g * p
        return g * (x - y), gx, g - gx


def linear_interpolate(p, x: Variable | NdArray, y: Variable | NdArray) -> Variable:
    """Elementwise linear-interpolation function.

    .. math::
        f(p, x, y) = p x + (1 - p) y

    Args:
        p (Variable or numpy.ndarray or cupy.ndarray): Weight of ``x``, of a
            floating point dtype.
        x (Variable or numpy.ndarray or cupy.ndarray): Value chosen where
            ``p`` is one; the shape and dtype of ``p``.
        y (Variable or numpy.ndarray or cupy.ndarray): Value chosen where
            ``p`` is zero; the shape and dtype of ``p``.

    Returns:
        Variable: Output variable with the shape and dtype of ``p``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> p = np.array([0., 0.25, 1.], np.float32)
        >>> x = np.array([4., 4., 4.], np.float32)
        >>> y = np.array([0., 0., 0.], np.float32)
        >>> F.linear_interpolate(p, x, y).array
        array([0., 1., 4.], dtype=float32)

    """
    return LinearInterpolate().apply((p, x, y))[0]


class LinearInterpolateGrad(_grad_of.GradOf):
    """Gradients of :func:`linear_interpolate` at ``p``, ``x`` and ``y``,
    applied to ``(p, x, y, gz)``."""

    def gradients(self, xs):
        return _grad_of.grads_of(linear_interpolate, xs[:3], xs[3])
