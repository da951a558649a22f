"""Swish activation with a learnable parameter."""

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
        (gy,) = grad_outputs
        beta_b = broadcast.broadcast_to(
            reshape.reshape(beta, _extended_shape(beta, x)), x.shape
        )
        s = sigmoid.sigmoid(beta_b * x)
        # ds/d(beta x) = s (1 - s)
        gy_ds = gy * (s * (1 - s))
        ret = []
        if 0 in indexes:
            ret.append(gy * s + gy_ds * beta_b * x)
        if 1 in indexes:
            ret.append(sum_mod.sum(gy_ds * x * x, axis=_reduction_axes(beta, x)))
        return tuple(ret)

    def _backward_arrays(self, indexes, grad_outputs):
        # one fused kernel (and the sum for beta) on the GPU; None (the
        # graph path) on the CPU
        x, beta = self.inputs[0].data, self.inputs[1].data
        if not isinstance(x, cuda.ndarray):
            return None
        gx, gbeta = _kernels.swish_bwd(
            x, beta.reshape(_extended_shape(beta, x)), grad_outputs[0]
        )
        ret = []
        if 0 in indexes:
            ret.append(gx)
        if 1 in indexes:
            ret.append(gbeta.sum(axis=_reduction_axes(beta, x)))
        return tuple(ret)


def swish(x, beta):
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
