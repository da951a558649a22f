"""Fully-connected (linear) layer and the nodes of its gradients."""

from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import reshape
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import type_check


class LinearFunction(function_node.FunctionNode):
    """Linear function ``y = x W^T + b``."""

    def check_type_forward(self, in_types):
        n_in = in_types.size()
        type_check.expect(2 <= n_in, n_in <= 3)
        has_bias = type_check.eval(n_in) == 3
        type_check._argname(
            in_types, ('x', 'W', 'b') if has_bias else ('x', 'W'))
        x_type, w_type = in_types[:2]
        type_check.expect(
            x_type.dtype.kind == 'f',
            w_type.dtype.kind == 'f',
            x_type.ndim == 2,
            w_type.ndim == 2,
            x_type.shape[1] == w_type.shape[1],
        )
        if has_bias:
            b_type = in_types[2]
            type_check.expect(
                b_type.dtype == x_type.dtype,
                b_type.ndim == 1,
                b_type.shape[0] == w_type.shape[0],
            )

    def forward(self, inputs):
        x, W = inputs[:2]
        self.retain_inputs((0, 1))
        y = utils.force_array(x.dot(W.T), x.dtype)
        if len(inputs) == 3:
            y += inputs[2]
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        grads = []
        if 0 in indexes:
            grads.append(LinearGradData().apply((W, gy))[0])
        if 1 in indexes:
            grads.append(LinearGradWeight(W.dtype).apply((x, gy))[0])
        if 2 in indexes:
            grads.append(sum_mod.sum(gy, axis=0))
        return tuple(grads)


class LinearGradData(function_node.FunctionNode):
    """Gradient of the linear function with respect to its input."""

    def forward(self, inputs):
        W, gy = inputs
        self.retain_inputs((0, 1))
        return utils.force_array(gy.dot(W), gy.dtype),

    def backward(self, indexes, grad_outputs):
        W, gy = self.get_retained_inputs()
        ggx, = grad_outputs
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
        return utils.force_array(gy.T.dot(x), self._w_dtype),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggW, = grad_outputs
        grads = []
        if 0 in indexes:
            grads.append(LinearGradData().apply((ggW, gy))[0])
        if 1 in indexes:
            grads.append(LinearFunction().apply((x, ggW))[0])
        return tuple(grads)


def linear(x, W, b=None, n_batch_axes=1):
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
    if n_batch_axes <= 0:
        raise ValueError('n_batch_axes should be greater than 0.')
    batch_shape = x.shape[:n_batch_axes]
    if n_batch_axes > 1 or x.ndim > 2:
        x = reshape.reshape(x, (utils.size_of_shape(batch_shape), -1))
    inputs = (x, W) if b is None else (x, W, b)
    y, = LinearFunction().apply(inputs)
    if n_batch_axes > 1:
        y = reshape.reshape(y, batch_shape + (-1,))
    return y
