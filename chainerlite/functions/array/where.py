"""Elementwise choice between two arrays by a boolean condition."""

from __future__ import annotations

import numpy
import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import sum_to
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Where(function_node.FunctionNode):
    """Elementwise choice between two arrays by a boolean condition."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('condition', 'x', 'y'))
        c_type, x_type, y_type = in_types
        type_check.expect(c_type.dtype == numpy.bool_, x_type.dtype == y_type.dtype)
        type_check.expect_broadcast_shapes(c_type.shape, x_type.shape, y_type.shape)

    def forward(self, inputs):
        condition, x, y = inputs
        xp = backend.get_array_module(*inputs)
        self.retain_inputs((0,))
        self._shapes = (x.shape, y.shape)
        return (utils.force_array(xp.where(condition, x, y)),)

    def backward(self, indexes, grad_outputs):
        (condition,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        xp = backend.get_array_module(gy)
        zero = xp.zeros((), gy.dtype)
        grads = [None, None, None]
        if 1 in indexes:
            gx = Where().apply((condition, gy, zero))[0]
            grads[1] = sum_to.sum_to(gx, self._shapes[0])
        if 2 in indexes:
            gz = Where().apply((condition, zero, gy))[0]
            grads[2] = sum_to.sum_to(gz, self._shapes[1])
        return tuple(grads)


def where(condition, x: Variable | NdArray, y: Variable | NdArray) -> Variable:
    """Chooses elements from ``x`` where ``condition`` holds, else from ``y``.

    The three arguments are broadcast together.

    Args:
        condition (Variable or numpy.ndarray or cupy.ndarray): Boolean array.
            It gets no gradient.
        x (Variable or numpy.ndarray or cupy.ndarray): Values chosen where
            ``condition`` is ``True``.
        y (Variable or numpy.ndarray or cupy.ndarray): Values chosen where
            ``condition`` is ``False``; of the dtype of ``x``.

    Returns:
        Variable: Output variable of the broadcast shape and of the dtype of
        ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> cond = np.array([[True, False], [False, True]])
        >>> x = np.array([[1, 2], [3, 4]], np.float32)
        >>> y = np.zeros((2, 2), np.float32)
        >>> F.where(cond, x, y).array
        array([[1., 0.],
               [0., 4.]], dtype=float32)

    """
    return Where().apply((condition, x, y))[0]
