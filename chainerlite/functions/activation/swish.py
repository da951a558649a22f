"""Swish activation with a learnable parameter."""

from __future__ import annotations

import typing

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.backends import cuda
from chainerlite.functions.activation import _kernels
from chainerlite.functions.activation import sigmoid
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import reshape
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _extended_shape(beta, x):
    # beta's axes line up with x's axes 1 .. beta.ndim.
    return (1,) + beta.shape + (1,) * (x.ndim - beta.ndim - 1)


def _reduction_axes(beta, x):
    return (0,) + tuple(range(1 + beta.ndim, x.ndim))


class Swish(function_node.FunctionNode):
    """Swish activation ``x * sigmoid(beta * x)``."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'beta'))
        x_type, beta_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            beta_type.dtype == x_type.dtype,
            x_type.ndim >= beta_type.ndim + 1,
            x_type.shape[1 : 1 + type_check.eval(beta_type.ndim)] == beta_type.shape,
        )

    def forward(self, inputs):
        x, beta = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0, 1))
        if xp is cuda.cupy:
            return (_kernels.swish_fwd(x, beta.reshape(_extended_shape(beta, x))),)
        bx = x * beta.reshape(_extended_shape(beta, x))
        return (utils.force_array(x * sigmoid._stable_sigmoid(bx, xp), x.dtype),)

    def backward(self, indexes, grad_outputs):
        x, beta = self.get_retained_inputs()
        grad = SwishGrad(_extended_shape(beta, x), _reduction_axes(beta, x), indexes)
        return grad.apply((x, beta, grad_outputs[0]))


class SwishGrad(function_node.FunctionNode):
    """Gradients of swish, by Chainer's constructor.

    Inputs are swish's ``x`` and ``beta`` and the output gradient ``gy``;
    the outputs are the gradients of ``x`` (index 0) and ``beta`` (index 1)
    for the indexes in ``indexes``, in that order (both by default, as
    Chainer's node gives them; swish's backward asks for those it needs).

    Args:
        extended_shape (tuple of int): The shape ``beta`` takes to line up
            with ``x``: ``(1,) + beta.shape + (1, ...)``.
        reduction_axes (tuple of int): The axes of ``x`` that ``beta``'s
            gradient sums over.
        indexes (tuple of int): The gradients to give (chainerlite's).

    """

    def __init__(self, extended_shape, reduction_axes, indexes=(0, 1)):
        self.extended_shape = tuple(extended_shape)
        self.reduction_axes = tuple(reduction_axes)
        self.indexes = indexes

    def forward(self, inputs):
        x, beta, gy = inputs
        self.retain_inputs((0, 1, 2))
        beta_e = beta.reshape(self.extended_shape)
        if isinstance(x, cuda.ndarray):
            # one fused kernel (and the sum for beta)
            gx, gbeta = _kernels.swish_bwd(x, beta_e, gy)
        else:
            s = utils.force_array(sigmoid._stable_sigmoid(beta_e * x, numpy), x.dtype)
            gy_ds = gy * (s * (1 - s))
            gx = gy * s + gy_ds * beta_e * x if 0 in self.indexes else None
            gbeta = gy_ds * x * x
        ret = []
        if 0 in self.indexes:
            ret.append(utils.force_array(gx))
        if 1 in self.indexes:
            gbeta = gbeta.sum(axis=self.reduction_axes)
            ret.append(utils.force_array(gbeta))
        return tuple(ret)

    def backward(self, indexes, grad_outputs):
        # gx = gy (s + u s') and gbeta = sum(gy x^2 s') with u = beta x,
        # s = sigmoid(u), s' = s (1 - s), s'' = s' (1 - 2 s)
        x, beta, gy = self.get_retained_inputs()
        ggs = dict(zip(self.indexes, grad_outputs))
        shape = self.extended_shape
        beta_b = broadcast.broadcast_to(reshape.reshape(beta, shape), x.shape)
        u = beta_b * x
        s = sigmoid.sigmoid(u)
        ds = s * (1 - s)
        dds = ds * (1 - 2 * s)
        du = 2 * ds + u * dds  # d(s + u s')/du
        g_x, g_beta, g_gy = [], [], []
        if ggs.get(0) is not None:
            ggx = ggs[0]
            g_x.append(ggx * gy * du * beta_b)
            g_beta.append(ggx * gy * du * x)
            g_gy.append(ggx * (s + u * ds))
        if ggs.get(1) is not None:
            ggb = broadcast.broadcast_to(reshape.reshape(ggs[1], shape), x.shape)
            t = ggb * gy * x
            g_x.append(t * du)
            # the small factor first: x^3 overflows float16 where s'' is 0
            g_beta.append(t * (dds * x) * x)
            g_gy.append(ggb * (ds * x) * x)
        ret = []
        for i, terms in enumerate((g_x, g_beta, g_gy)):
            if i not in indexes:
                continue
            total = sum(terms[1:], terms[0]) if terms else None
            if i == 1 and total is not None:
                total = sum_mod.sum(total, axis=self.reduction_axes)
            ret.append(total)
        return tuple(ret)


def swish(x: Variable | NdArray, beta: Variable | NdArray) -> Variable:
    """Swish activation function.

    .. math::
        f(x, \\beta) = x \\cdot \\sigma(\\beta x)

    where :math:`\\sigma` is the sigmoid function; :math:`f(x, 0) = x / 2`
    and :math:`f(x, \\beta) \\to \\max(0, x)` as :math:`\\beta \\to \\infty`.
    See `Searching for Activation Functions
    <https://arxiv.org/abs/1710.05941>`_.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype and shape :math:`(s_B, s_1, ..., s_N)`, where
            :math:`s_B` is the minibatch dimension.
        beta (Variable or numpy.ndarray or cupy.ndarray): Parameter
            :math:`\\beta` of the dtype of ``x`` and shape
            :math:`(s_1, ..., s_M)` with :math:`0 \\le M \\le N`. It is
            reshaped to :math:`(1, s_1, ..., s_M, 1, ..., 1)` and multiplied
            with ``x`` elementwise; its gradient is computed too (to learn
            it, use it as a parameter).

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[-1, 0, 2], [1, 1, 1]], np.float32)
        >>> beta = np.array([1, 0, 100], np.float32)
        >>> F.swish(x, beta).array.round(4)
        array([[-0.2689,  0.    ,  2.    ],
               [ 0.7311,  0.5   ,  1.    ]], dtype=float32)

    """
    return Swish().apply((x, beta))[0]
