"""Parametric rectified linear unit."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import reshape
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _extended_shape(W, x):
    # W's axes line up with x's axes 1 .. W.ndim.
    return (1,) + W.shape + (1,) * (x.ndim - W.ndim - 1)


def _reduction_axes(W, x):
    return (0,) + tuple(range(1 + W.ndim, x.ndim))


class PReLUFunction(function_node.FunctionNode):
    """Parametric rectified linear unit."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'W'))
        x_type, W_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            W_type.dtype == x_type.dtype,
            x_type.ndim >= W_type.ndim + 1,
            x_type.shape[1 : 1 + type_check.eval(W_type.ndim)] == W_type.shape,
        )

    def forward(self, inputs):
        x, W = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0, 1))
        y = xp.where(x >= 0, x, x * W.reshape(_extended_shape(W, x)))
        return (utils.force_array(y, x.dtype),)

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        node = PReLUFunctionGrad(x.array, _reduction_axes(W, x), _extended_shape(W, x))
        grads = node.apply((x, W, grad_outputs[0]))
        return tuple(grads[i] for i in indexes)


class PReLUFunctionGrad(function_node.FunctionNode):
    """Gradients of the PReLU for the inputs ``(x, W, gy)``: ``gx`` (``gy``
    where ``cond >= 0``, ``W * gy`` elsewhere) and ``gW`` (``x * gy`` where
    ``cond < 0``, 0 elsewhere; summed over ``reduce_axes`` unless it is
    None).

    Linear in ``W`` and ``gy``, bilinear in ``x`` and ``gy``; its own
    backward applies the node again to ``(gy, W, ggx)``, so every order of
    gradient, and the sign of every zero in it, is Chainer 7.8.1's. A NaN
    ``cond`` counts as negative in the first order and adds nothing through
    ``gW``'s gradient, also as in Chainer.

    Args:
        cond (numpy.ndarray or cupy.ndarray): The PReLU's input, which
            picks the side.
        reduce_axes (tuple of ints or None): The axes of ``cond`` W is
            shared over, or None for ``gW`` of the shape of ``cond``.
        extended_shape (tuple of ints): W's shape with the axes of
            ``cond``.

    """

    def __init__(self, cond, reduce_axes, extended_shape):
        self.cond = cond
        self.reduce_axes = reduce_axes
        self.extended_shape = extended_shape

    def forward(self, inputs):
        x, W, gy = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0, 1, 2))
        # picked, not masked by a product: an infinite slope or input on
        # the side not taken must not turn the gradient into NaN
        nonneg = self.cond >= 0
        gx = xp.where(nonneg, gy, gy * W.reshape(self.extended_shape))
        gW = xp.where(nonneg, x.dtype.type(0), x * gy)
        if self.reduce_axes is not None:
            gW = gW.sum(axis=self.reduce_axes)
        return utils.force_array(gx, x.dtype), utils.force_array(gW, x.dtype)

    def backward(self, indexes, grad_outputs):
        x, W, gy = self.get_retained_inputs()
        ggx, ggW = grad_outputs
        xp = backend.get_array_module(x.array)
        if ggx is None:
            ggx = xp.zeros(x.shape, x.dtype)
        summed = self.reduce_axes is not None
        if ggW is None:
            ggW = xp.zeros(W.shape if summed else x.shape, x.dtype)
        if summed:
            ggW = broadcast.broadcast_to(
                reshape.reshape(ggW, self.extended_shape), x.shape
            )
        # ggW where cond < 0, ggW * 0 (a zero of its sign) elsewhere
        ggW = ggW * (self.cond < 0).astype(x.dtype)
        node = PReLUFunctionGrad(self.cond, None, self.extended_shape)
        g_gy, g_W = node.apply((gy, W, ggx))
        ret = []
        if 0 in indexes:
            ret.append(gy * ggW)
        if 1 in indexes:
            ret.append(sum_mod.sum(g_W, axis=_reduction_axes(W, x)))
        if 2 in indexes:
            ret.append(x * ggW + g_gy)
        return tuple(ret)


def prelu(x: Variable | NdArray, W: Variable | NdArray) -> Variable:
    """Parametric ReLU function.

    .. math::
        \\mathrm{PReLU}(x_i) = \\begin{cases} x_i & (x_i \\ge 0) \\\\
                                            W_i x_i & (x_i < 0) \\end{cases}

    ``W`` covers the leading non-batch axes of ``x``: if ``W`` has shape
    ``(2, 3, 4)``, ``x`` must have shape ``(B, 2, 3, 4, S_1, ..., S_N)``
    with any number :math:`N \\ge 0` of trailing axes, over which (and over
    the batch) the elements of ``W`` are shared. See `Delving Deep into
    Rectifiers <https://arxiv.org/abs/1502.01852>`_.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype; its first axis is the minibatch axis.
        W (Variable or numpy.ndarray or cupy.ndarray): Coefficients of the
            negative part, of the dtype of ``x``.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(-3, 3, dtype=np.float32).reshape((2, 3))
        >>> W = np.array([0.01, 0.1, 1], dtype=np.float32)
        >>> F.prelu(x, W).array
        array([[-0.03, -0.2 , -1.  ],
               [ 0.  ,  1.  ,  2.  ]], dtype=float32)

    """
    return PReLUFunction().apply((x, W))[0]
