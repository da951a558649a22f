"""Logarithm of the softmax along an axis."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.backends import cuda
from chainerlite.functions.activation import _kernels
from chainerlite.functions.array import broadcast
from chainerlite.functions.math import exponential
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _log_softmax(x, axis, xp):
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - xp.log(xp.exp(shifted).sum(axis=axis, keepdims=True))


class LogSoftmax(function_node.FunctionNode):
    """Log-softmax along an axis."""

    def __init__(self, axis=1):
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        type_check.expect(
            x_type.dtype.kind == 'f', -x_type.ndim <= self.axis, self.axis < x_type.ndim
        )

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_outputs((0,))
        if xp is cuda.cupy:
            m = x.max(axis=self.axis, keepdims=True)
            s = _kernels.sum_exp_shifted(x, m, axis=self.axis, keepdims=True)
            return (_kernels.log_softmax_fwd(x, m, s),)
        return (utils.force_array(_log_softmax(x, self.axis, xp)),)

    def backward(self, indexes, grad_outputs):
        (y,) = self.get_retained_outputs()
        (gy,) = grad_outputs
        total = sum_mod.sum(gy, axis=self.axis, keepdims=True)
        return (gy - exponential.exp(y) * broadcast.broadcast_to(total, y.shape),)

    def _backward_arrays(self, indexes, grad_outputs):
        (y,) = self._retained_output_data
        gy = grad_outputs[0]
        xp = backend.get_array_module(y)
        if xp is cuda.cupy:
            total = gy.sum(axis=self.axis, keepdims=True)
            return (_kernels.log_softmax_bwd(y, gy, total),)
        gx = utils.force_array(xp.exp(y))
        gx *= gy.sum(axis=self.axis, keepdims=True)
        return (utils.force_array(gy - gx),)


def log_softmax(x: Variable | NdArray, axis=1) -> Variable:
    """Channel-wise log-softmax function.

    .. math::
        y_i = \\log \\frac{\\exp(x_i)}{\\sum_j \\exp(x_j)}
            = x_i - \\log \\sum_j \\exp(x_j)

    where the sum runs along ``axis``. It is computed with the log-sum-exp
    trick, which is more stable than ``log(softmax(x))``: large inputs do
    not overflow and very small probabilities keep their logarithm.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype, of at least one dimension.
        axis (int): Axis along which the log-softmax is taken; negative
            values count from the end.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[0., 1., 2.], [0., 100., 200.]])
        >>> F.log_softmax(x).array.round(4).tolist()
        [[-2.4076, -1.4076, -0.4076], [-200.0, -100.0, 0.0]]

    """
    return LogSoftmax(axis).apply((x,))[0]
