"""Elementwise maximum of two variables."""

from __future__ import annotations

import operator
import typing

from chainerlite.functions.math import _elementwise_compare

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class MaximumGrad(_elementwise_compare.ElementwiseCompareGrad):
    """Gradient of :func:`maximum` at ``x1`` and ``x2`` (arrays), applied to
    ``(gy,)``: the gradients of ``x1`` and ``x2`` (see
    :class:`~chainerlite.functions.math._elementwise_compare.ElementwiseCompareGrad`).
    """

    # Ties send the gradient to x1.
    _x1_wins = staticmethod(operator.ge)


class Maximum(_elementwise_compare.ElementwiseCompare):
    """Elementwise maximum of two inputs (broadcast together)."""

    _array_function = 'maximum'
    _grad = MaximumGrad


def maximum(x1: Variable | NdArray, x2: Variable | NdArray) -> Variable:
    """Elementwise maximum of input variables.

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
        >>> F.maximum(x1, x2).array
        array([3., 2., 2., 3.], dtype=float32)

    """
    return Maximum().apply((x1, x2))[0]
