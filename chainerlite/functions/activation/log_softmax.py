"""Logarithm of the softmax along an axis."""

from __future__ import annotations

import typing

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite._kernels import norm
from chainerlite.backends import cuda
from chainerlite.functions.activation import _kernels
from chainerlite.functions.activation import softmax
from chainerlite.functions.math import exponential
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def logsumexp(x, axis):
    """``log(sum(exp(x)))`` along ``axis`` of the array ``x``, kept as an
    axis of length 1, shifted by the maximum so that nothing overflows."""
    xp = backend.get_array_module(x)
    m = x.max(axis=axis, keepdims=True)
    return m + xp.log(xp.exp(x - m).sum(axis=axis, keepdims=True))


def _log_softmax(x, axis=1):
    """The log-softmax of the array ``x`` along ``axis`` (an array)."""
    xp = backend.get_array_module(x)
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - xp.log(xp.exp(shifted).sum(axis=axis, keepdims=True))


class LogSoftmax(function_node.FunctionNode):
    """Log-softmax along an axis."""

    def __init__(self, axis=1):
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        # Chainer's check chains a comparison of its type-check variables,
        # which fails as RuntimeError: the failure is one here too.
        with type_check.invalid_as(RuntimeError):
            type_check.expect(
                x_type.dtype.kind == 'f',
                -x_type.ndim <= self.axis,
                self.axis < x_type.ndim,
            )

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_outputs((0,))
        if xp is cuda.cupy:
            m = x.max(axis=self.axis, keepdims=True)
            s = _kernels.sum_exp_shifted(x, m, axis=self.axis, keepdims=True)
            return (_kernels.log_softmax_fwd(x, m, s),)
        y = norm.softmax(x, self.axis, True)
        if y is None:
            y = utils.force_array(_log_softmax(x, self.axis))
        return (y,)

    def backward(self, indexes, grad_outputs):
        (y,) = self.get_retained_outputs()
        grad = LogSoftmaxGrad(backend.get_array_module(y), y.shape, y.dtype, self.axis)
        return grad.apply((y, grad_outputs[0]))


class LogSoftmaxGrad(function_node.FunctionNode):
    """Gradient of the log-softmax from its output: ``gy - exp(y) sum(gy)``.

    Inputs are the log-softmax output ``y`` and the output gradient ``gy``;
    the sum runs along ``axis``. ``x_xp``, ``x_shape`` and ``x_dtype`` (the
    array module, shape and dtype of the log-softmax input) are kept as
    Chainer's node keeps them; the computation reads its inputs.
    """

    def __init__(self, x_xp, x_shape, x_dtype, axis):
        self._x_xp = x_xp
        self._x_shape = x_shape
        self._x_dtype = x_dtype
        self.axis = axis

    def forward(self, inputs):
        y, gy = inputs
        self.retain_inputs((0, 1))
        gx = norm.softmax_grad(y, gy, self.axis, True)
        if gx is not None:
            return (gx,)  # the expressions below in one pass over each row
        total = gy.sum(axis=self.axis, keepdims=True)
        if isinstance(y, cuda.ndarray):
            return (_kernels.log_softmax_bwd(y, gy, total),)
        gx = utils.force_array(numpy.exp(y))
        gx *= total
        return (utils.force_array(gy - gx),)

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        (g,) = grad_outputs
        p = exponential.exp(y)
        ret = []
        if 0 in indexes:
            ret.append(-g * p * softmax._broadcast_sum(gy, self.axis, y.shape))
        if 1 in indexes:
            ret.append(g - softmax._broadcast_sum(g * p, self.axis, y.shape))
        return tuple(ret)


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
