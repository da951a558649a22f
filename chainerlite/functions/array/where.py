"""Elementwise choice between two arrays by a boolean condition."""

from __future__ import annotations

import numpy
import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite import variable as variable_mod
from chainerlite.functions.array import sum_to
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Where(function_node.FunctionNode):
    """Elementwise choice between two arrays by a boolean condition.

    As Chainer's node: the condition is an attribute (an array, which gets
    no gradient), the inputs are ``x`` and ``y``; nothing is retained.
    """

    def __init__(self, condition):
        self.condition = condition

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'y'))
        x_type, y_type = in_types
        c_type = type_check._make_variable_from_array(
            utils.force_array(self.condition), 'condition'
        )
        type_check.expect(c_type.dtype == numpy.bool_, x_type.dtype == y_type.dtype)
        type_check.expect_broadcast_shapes(c_type.shape, x_type.shape, y_type.shape)

    def forward(self, inputs):
        x, y = inputs
        xp = backend.get_array_module(*inputs)
        return (utils.force_array(xp.where(self.condition, x, y)),)

    def backward(self, indexes, grad_outputs):
        (gy,) = grad_outputs
        xp = backend.get_array_module(gy)
        zero = xp.zeros((), gy.dtype)
        grads = []
        if 0 in indexes:
            gx = Where(self.condition).apply((gy, zero))[0]
            grads.append(sum_to.sum_to(gx, self.inputs[0].shape))
        if 1 in indexes:
            gz = Where(self.condition).apply((zero, gy))[0]
            grads.append(sum_to.sum_to(gz, self.inputs[1].shape))
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
    if isinstance(condition, variable_mod.Variable):
        condition = condition.array
    return Where(condition).apply((x, y))[0]
