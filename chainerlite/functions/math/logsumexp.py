"""Logarithm of the sum of exponentials over given axes."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import broadcast
from chainerlite.functions.math import exponential
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class LogSumExp(function_node.FunctionNode):
    """Logarithm of the sum of exponentials over given axes."""

    def __init__(self, axis=None):
        self.axis = sum_mod._normalize_axis(axis)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        sum_mod._check_axis(x_type, self.axis)

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        # Shift by the maximum so that exp cannot overflow. As in Chainer, a
        # slice whose maximum is infinite (or NaN) gives NaN: inf - inf.
        m = xp.amax(x, axis=self.axis, keepdims=True)
        s = xp.sum(xp.exp(x - m), axis=self.axis)
        y = xp.log(s) + m.reshape(s.shape)
        return (utils.force_array(y, x.dtype),)

    def backward(self, indexes, grad_outputs):
        # The gradient is the softmax of x over the axes, from the retained
        # input and output (as Chainer's node keeps them): exp(x - y)
        # normalised by its sum, so that it keeps its precision where the
        # output is rounded (float16 near 1000); a slice whose output is
        # NaN gets NaN, as in Chainer.
        (x,) = self.get_retained_inputs()
        (y,) = self.get_retained_outputs()
        shift = sum_mod._unreduce(y.array, self.axis, x.shape, False)
        e = exponential.exp(x - shift.array)
        total = sum_mod.sum(e, axis=self.axis, keepdims=True)
        gy = sum_mod._unreduce(grad_outputs[0], self.axis, x.shape, False)
        return (gy * e / broadcast.broadcast_to(total, x.shape),)


def logsumexp(x: Variable | NdArray, axis=None) -> Variable:
    """Logarithm of the sum of exponentials of array elements.

    .. math::
        y_i = \\log\\left(\\sum_j \\exp(x_{ij})\\right)

    The maximum is subtracted before exponentiation, so large inputs do not
    overflow.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        axis (None, int or tuple of int): Axes along which the sum is taken.
            ``None`` sums all the elements.

    Returns:
        Variable: Output variable with the dtype of ``x``, without the
        reduced axes.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[0, 0], [100, 100]], np.float32)
        >>> F.logsumexp(x, axis=1).array.round(4)
        array([  0.6931, 100.6931], dtype=float32)

    """
    return LogSumExp(axis).apply((x,))[0]
