"""Cumulative product of array elements along an axis."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import utils
from chainerlite.functions.array import reshape
from chainerlite.functions.array import separate
from chainerlite.functions.array import stack
from chainerlite.functions.math import cumsum
from chainerlite.functions.rnn import _formula

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Cumprod(cumsum.AlongAxis):
    """Cumulative product of array elements along an axis."""

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        axis = self.axis
        if axis is None:
            x, axis = x.ravel(), 0
        return (utils.force_array(xp.cumprod(x, axis=axis), x.dtype),)

    def backward(self, indexes, grad_outputs):
        # With y[i] = x[0] ... x[i], the gradient of x[k] is
        # y[k-1] * s[k], where s[k] = gy[k] + x[k+1] * s[k+1] sums gy[i]
        # times x[k+1] ... x[i] over i >= k; no division, so zeros in x are
        # fine, and every step is differentiable.
        (x,) = self.get_retained_inputs()
        (y,) = self.get_retained_outputs()
        (gy,) = grad_outputs
        in_shape = x.shape
        axis = self.axis
        if axis is None:
            x, axis = reshape.reshape(x, (-1,)), 0
        axis %= x.ndim
        if x.shape[axis] == 0:
            return (reshape.reshape(gy, in_shape),)
        xs = separate.separate(x, axis)
        ys = separate.separate(y, axis)
        gys = separate.separate(gy, axis)
        n = len(xs)
        s = gys[n - 1]
        gxs = [None] * n
        for k in range(n - 1, -1, -1):
            if k < n - 1:
                s = gys[k] + xs[k + 1] * s
            gxs[k] = s if k == 0 else ys[k - 1] * s
        gx = stack.stack(gxs, axis)
        return (reshape.reshape(gx, in_shape),)


class Cumprodsum(_formula.FormulaNode):
    """Chainer's node of the recurrence ``y[0] = xadd[0]``,
    ``y[i] = y[i-1] * xmul[i-1] + xadd[i]`` along a (non-negative) axis,
    applied to ``(xmul, xadd)``, where ``xadd`` has one more element than
    ``xmul`` along the axis. Its gradients, to any order, are those of the
    recurrence written with differentiable functions."""

    def __init__(self, axis):
        self.axis = axis

    def formula(self, xmul, xadd):
        axis = self.axis
        if xadd.shape[axis] != xmul.shape[axis] + 1:
            raise ValueError(
                'Cumprodsum: xadd must have one more element than xmul along '
                'axis {}; got shapes {} and {}'.format(axis, xadd.shape, xmul.shape)
            )
        muls = separate.separate(xmul, axis) if xmul.shape[axis] else ()
        adds = separate.separate(xadd, axis)
        ys = [adds[0]]
        for mul, add in zip(muls, adds[1:]):
            ys.append(ys[-1] * mul + add)
        return (stack.stack(ys, axis),)


def cumprod(x: Variable | NdArray, axis=None) -> Variable:
    """Cumulative product of array elements along an axis.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        axis (int or None): The axis along which the products run. ``None``
            flattens ``x`` first.

    Returns:
        Variable: Output variable with the shape of ``x`` (1-D with
        ``x.size`` elements when ``axis`` is ``None``) and its dtype.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
        >>> F.cumprod(x).array
        array([  1.,   2.,   6.,  24., 120., 720.], dtype=float32)
        >>> F.cumprod(x, axis=0).array
        array([[ 1.,  2.,  3.],
               [ 4., 10., 18.]], dtype=float32)

    """
    return Cumprod(axis).apply((x,))[0]
