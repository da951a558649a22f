"""Softmax along an axis."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.backends import cuda
from chainerlite.functions.activation import _kernels
from chainerlite.functions.array import broadcast
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Softmax(function_node.FunctionNode):
    """Softmax along an axis."""

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
            return (_kernels.softmax_fwd(x, m, s),)
        e = utils.force_array(x - x.max(axis=self.axis, keepdims=True))
        xp.exp(e, out=e)
        e /= e.sum(axis=self.axis, keepdims=True)
        return (e,)

    def backward(self, indexes, grad_outputs):
        (y,) = self.get_retained_outputs()
        (gy,) = grad_outputs
        ygy = y * gy
        total = sum_mod.sum(ygy, axis=self.axis, keepdims=True)
        return (ygy - y * broadcast.broadcast_to(total, y.shape),)

    def _backward_arrays(self, indexes, grad_outputs):
        (y,) = self._retained_output_data
        if isinstance(y, cuda.ndarray):
            gy = grad_outputs[0]
            s = _kernels.sum_product(y, gy, axis=self.axis, keepdims=True)
            return (_kernels.softmax_bwd(y, gy, s),)
        gx = utils.force_array(y * grad_outputs[0])
        total = gx.sum(axis=self.axis, keepdims=True)
        gx -= y * total
        return (gx,)


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
