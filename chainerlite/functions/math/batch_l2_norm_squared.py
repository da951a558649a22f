"""Squared L2 norm of each example of a minibatch."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions import _grad_of
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import reshape
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class BatchL2NormSquared(function_node.FunctionNode):
    """Squared L2 norm of each example of a minibatch."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim >= 2)

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        x = x.reshape(len(x), utils.size_of_shape(x.shape[1:]))
        return (utils.force_array(xp.sum(x * x, axis=1), x.dtype),)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        gy = reshape.reshape(grad_outputs[0], (len(x),) + (1,) * (x.ndim - 1))
        return (broadcast.broadcast_to(gy, x.shape) * x * 2.0,)


def batch_l2_norm_squared(x: Variable | NdArray) -> Variable:
    """Squared L2 norm of each example of a minibatch.

    .. math::
        y_i = \\sum_j x_{ij}^2

    The first axis is the minibatch; the other axes of each example are
    flattened, and no reduction is done along the minibatch.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype with at least two axes, of shape :math:`(N, ...)`.

    Returns:
        Variable: Output variable of shape :math:`(N,)` and the dtype of
        ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[1, 2], [3, 4]], np.float32)
        >>> F.batch_l2_norm_squared(x).array
        array([ 5., 25.], dtype=float32)

    """
    return BatchL2NormSquared().apply((x,))[0]


class BatchL2NormSquaredGrad(_grad_of.GradOf):
    """Gradient of :func:`batch_l2_norm_squared`, ``2 x gy`` (``gy`` per
    sample), applied to ``(x, gy)``."""

    def gradients(self, xs):
        return _grad_of.grads_of(batch_l2_norm_squared, xs[:1], xs[1])
