"""Elementwise minimum of two variables."""

from __future__ import annotations

import operator
import typing

from chainerlite.functions.math import _elementwise_compare

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class MinimumGrad(_elementwise_compare.ElementwiseCompareGrad):
    """Gradient of :func:`minimum` at ``x1`` and ``x2`` (arrays), applied to
    ``(gy,)``: the gradients of ``x1`` and ``x2`` (see
    :class:`~chainerlite.functions.math._elementwise_compare.ElementwiseCompareGrad`).
    """

    # Ties send the gradient to x1.
    _x1_wins = staticmethod(operator.le)
    # Where either is NaN neither gets it (as in Chainer).
    _x2_wins = staticmethod(operator.gt)


class Minimum(_elementwise_compare.ElementwiseCompare):
    """Elementwise minimum of two inputs (broadcast together)."""

    _array_function = 'minimum'
    _grad = MinimumGrad


def minimum(x1: Variable | NdArray, x2: Variable | NdArray) -> Variable:
    """Elementwise minimum of input variables.

    Where ``x1`` and ``x2`` are equal, the gradient goes to ``x1``.

    Args:
        x1 (Variable or numpy.ndarray or cupy.ndarray): Input variable of a
            floating point dtype.
        x2 (Variable or numpy.ndarray or cupy.ndarray): Input variable of the
            dtype of ``x1``. The shapes of ``x1`` and ``x2`` are broadcast
            together.

    Returns:
        Variable: Output variable with the broadcast shape and the dtype of
        the inputs.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x1 = np.array([0., 1., 2., 3.], np.float32)
        >>> x2 = np.array([3., 2., 1., 0.], np.float32)
        >>> F.minimum(x1, x2).array
        array([0., 1., 1., 0.], dtype=float32)

    """
    return Minimum().apply((x1, x2))[0]
