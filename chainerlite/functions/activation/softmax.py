"""Softmax along an axis."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite._kernels import norm
from chainerlite.backends import cuda
from chainerlite.functions.activation import _kernels
from chainerlite.functions.array import broadcast
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _broadcast_sum(v, axis, shape):
    """The sum of the variable ``v`` along ``axis``, broadcast to ``shape``."""
    return broadcast.broadcast_to(sum_mod.sum(v, axis=axis, keepdims=True), shape)


class Softmax(function_node.FunctionNode):
    """Softmax along an axis."""

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
            return (_kernels.softmax_fwd(x, m, s),)
        y = norm.softmax(x, self.axis, False)
        if y is not None:
            return (y,)  # the expressions below in one pass over each row
        e = utils.force_array(x - x.max(axis=self.axis, keepdims=True))
        xp.exp(e, out=e)
        e /= e.sum(axis=self.axis, keepdims=True)
        return (e,)

    def backward(self, indexes, grad_outputs):
        (y,) = self.get_retained_outputs()
        return _SoftmaxGrad(self.axis).apply((y, grad_outputs[0]))


class _SoftmaxGrad(function_node.FunctionNode):
    """Gradient of the softmax from its output: ``y (gy - sum(y gy))``.

    Inputs are the softmax output ``y`` and the output gradient ``gy``; the
    sum runs along ``axis``.
    """

    def __init__(self, axis):
        self.axis = axis

    def forward(self, inputs):
        y, gy = inputs
        self.retain_inputs((0, 1))
        if isinstance(y, cuda.ndarray):
            s = _kernels.sum_product(y, gy, axis=self.axis, keepdims=True)
            return (_kernels.softmax_bwd(y, gy, s),)
        gx = norm.softmax_grad(y, gy, self.axis, False)
        if gx is not None:
            return (gx,)  # the expressions below in one pass over each row
        gx = utils.force_array(y * gy)
        total = gx.sum(axis=self.axis, keepdims=True)
        gx -= y * total
        return (gx,)

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        (g,) = grad_outputs
        ret = []
        if 0 in indexes:
            # d gx_i / d y_k = (gy_i - sum(y gy)) [i = k] - y_i gy_k
            s_ygy = _broadcast_sum(y * gy, self.axis, y.shape)
            s_yg = _broadcast_sum(y * g, self.axis, y.shape)
            ret.append(g * (gy - s_ygy) - gy * s_yg)
        if 1 in indexes:
            # gx is linear in gy with a symmetric matrix
            ret.append(_SoftmaxGrad(self.axis).apply((y, g))[0])
        return tuple(ret)


def softmax(x: Variable | NdArray, axis=1) -> Variable:
    """Softmax function.

    .. math::
        y_i = \\frac{\\exp(x_i)}{\\sum_j \\exp(x_j)}

    where the sum runs along ``axis``. The maximum along ``axis`` is
    subtracted first, so large inputs do not overflow.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype, of at least one dimension.
        axis (int): Axis along which the softmax is taken; negative values
            count from the end.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[0, 1, 2], [0, 2, 4]], np.float32)
        >>> y = F.softmax(x, axis=1)
        >>> y.array.round(4)
        array([[0.09  , 0.2447, 0.6652],
               [0.0159, 0.1173, 0.8668]], dtype=float32)
        >>> y.array.sum(axis=1)
        array([1., 1.], dtype=float32)

    """
    return Softmax(axis).apply((x,))[0]
