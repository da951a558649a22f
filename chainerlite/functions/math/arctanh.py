"""Elementwise inverse hyperbolic tangent."""

from __future__ import annotations

import typing

from chainerlite.functions.math import _unary

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Arctanh(_unary.UnaryFloat):
    """Elementwise inverse hyperbolic tangent."""

    name = 'Arctanh'  # Chainer's label: the class name

    def compute(self, xp, x):
        return xp.arctanh(x)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        # Chainer's nodes (hooks see them): 1 / (1 - x ** 2), times gy
        return (gy * (1.0 / (1 - x**2)),)


def arctanh(x: Variable | NdArray) -> Variable:
    """Elementwise inverse hyperbolic tangent function.

    .. math::
        y_i = \\tanh^{-1} x_i, \\quad
        \\frac{\\partial y_i}{\\partial x_i} = \\frac{1}{1 - x_i^2}

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype, with values in :math:`(-1, 1)`.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.arctanh(np.array([0., 0.5])).array.round(4)
        array([0.    , 0.5493])

    """
    return Arctanh().apply((x,))[0]
