"""Parametric rectified linear unit."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import reshape
from chainerlite.functions.array import where
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
        (gy,) = grad_outputs
        # picked, not masked by a product: an infinite slope or input where
        # the other side is taken must not turn the gradient into NaN; NaN
        # inputs count as negative, as in Chainer
        nonneg = x.array >= 0
        zero = backend.get_array_module(nonneg).zeros(x.shape, x.dtype)
        ret = []
        if 0 in indexes:
            W_b = broadcast.broadcast_to(
                reshape.reshape(W, _extended_shape(W, x)), x.shape
            )
            ret.append(where.where(nonneg, gy, gy * W_b))
        if 1 in indexes:
            # A NaN input gives W a NaN gradient, as a negative one would,
            # through a constant: as in Chainer, it adds no second-order
            # term to x's gradient (Chainer counts NaN as non-negative there).
            xa = x.array
            nan_fill = backend.get_array_module(xa).where(xa != xa, xa, zero)
            gW = where.where(xa < 0, gy * x, nan_fill)
            ret.append(sum_mod.sum(gW, axis=_reduction_axes(W, x)))
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
