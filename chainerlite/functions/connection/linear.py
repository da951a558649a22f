"""Fully-connected (linear) layer and the nodes of its gradients."""

from __future__ import annotations

import typing

from chainerlite import function_node
from chainerlite._core import handover
from chainerlite._core import ops_nn
from chainerlite import utils
from chainerlite.functions.array import reshape

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


#: Linear function node ``y = x W^T + b``. It is compiled
#: (``chainerlite._core.ops_nn``): forward and backward run on raw arrays unless
#: a hook needs the node or double backprop is requested, where the grad
#: nodes below take over.
LinearFunction = ops_nn.LinearFunction


class LinearGradData(function_node.FunctionNode):
    """Gradient of the linear function with respect to its input."""

    def forward(self, inputs):
        W, gy = inputs
        self.retain_inputs((0, 1))
        return (utils.force_array(gy.dot(W), gy.dtype),)

    def backward(self, indexes, grad_outputs):
        W, gy = self.get_retained_inputs()
        (ggx,) = grad_outputs
        grads = []
        if 0 in indexes:
            grads.append(LinearGradWeight(W.dtype).apply((ggx, gy))[0])
        if 1 in indexes:
            grads.append(LinearFunction().apply((ggx, W))[0])
        return tuple(grads)


class LinearGradWeight(function_node.FunctionNode):
    """Gradient of the linear function with respect to its weight."""

    def __init__(self, w_dtype):
        self._w_dtype = w_dtype

    def forward(self, inputs):
        x, gy = inputs
        self.retain_inputs((0, 1))
        return (utils.force_array(gy.T.dot(x), self._w_dtype),)

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        (ggW,) = grad_outputs
        grads = []
        if 0 in indexes:
            grads.append(LinearGradData().apply((ggW, gy))[0])
        if 1 in indexes:
            grads.append(LinearFunction().apply((x, ggW))[0])
        return tuple(grads)


def linear(
    x: Variable | NdArray,
    W: Variable | NdArray,
    b: Variable | NdArray | None = None,
    n_batch_axes=1,
) -> Variable:
    """Linear function, also called a fully-connected layer.

    It computes ``y = x W^T + b``. The leading ``n_batch_axes`` axes of
    ``x`` are batch axes; the remaining axes are flattened into one input
    axis of size ``N``.

    .. math::
        y_{i} = W x_{i} + b

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(s_1, ..., s_n, ...)`` whose trailing axes hold ``N`` elements.
        W (Variable or numpy.ndarray or cupy.ndarray): Weight of shape
            ``(M, N)``.
        b (Variable or numpy.ndarray or cupy.ndarray): Bias of shape
            ``(M,)``, or ``None`` for no bias.
        n_batch_axes (int): Number of leading batch axes of ``x``; at least
            one.

    Returns:
        Variable: Output of shape ``(s_1, ..., s_n, M)``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.ones((2, 3), np.float32)
        >>> W = np.arange(12, dtype=np.float32).reshape(4, 3)
        >>> b = np.full(4, 0.5, np.float32)
        >>> F.linear(x, W, b).array
        array([[ 3.5, 12.5, 21.5, 30.5],
               [ 3.5, 12.5, 21.5, 30.5]], dtype=float32)

    """
    if n_batch_axes == 1 and ops_nn.is_2d(x):
        return ops_nn.linear2d(x, W, b)  # the common case, all compiled
    if n_batch_axes <= 0:
        raise ValueError('n_batch_axes should be greater than 0.')
    batch_shape = x.shape[:n_batch_axes]
    if n_batch_axes > 1 or x.ndim > 2:
        x = reshape.reshape(x, (utils.size_of_shape(batch_shape), -1))
    y = ops_nn.linear2d(x, W, b)
    if n_batch_axes > 1:
        y = reshape.reshape(y, batch_shape + (-1,))
    return y


# the double backprop of the compiled linear node (_core/ops_nn.pyx)
handover.provide(LinearGradData=LinearGradData, LinearGradWeight=LinearGradWeight)
