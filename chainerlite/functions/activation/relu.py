"""Rectified linear unit and the node of its gradient."""

from __future__ import annotations

import typing

from chainerlite import function_node
from chainerlite import utils
from chainerlite._core import handover
from chainerlite._core import ops_nn

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


#: Rectified linear unit node. It is compiled (``chainerlite._core.ops_nn``):
#: forward and backward run on raw arrays unless a hook needs the node or
#: double backprop is requested, where ``ReLUGrad`` below takes over.
ReLU = ops_nn.ReLU


class ReLUGrad(function_node.FunctionNode):
    """Gradient of ReLU: passes the gradient where the output is positive.

    Args:
        mask (numpy.ndarray or cupy.ndarray): Boolean array, ``True`` where
            the ReLU output is positive.

    """

    def __init__(self, mask):
        self.mask = mask

    def forward(self, inputs):
        (gy,) = inputs
        return (utils.force_array(gy * self.mask, gy.dtype),)

    def backward(self, indexes, grad_outputs):
        return ReLUGrad(self.mask).apply(grad_outputs)


def relu(x: Variable | NdArray) -> Variable:
    """Rectified linear unit function.

    .. math::
        f(x) = \\max(0, x)

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[-1, 0], [2, -3], [-2, 1]], np.float32)
        >>> F.relu(x).array
        array([[0., 0.],
               [2., 0.],
               [0., 1.]], dtype=float32)

    """
    return ops_nn.relu(x)


# the double backprop of the compiled ReLU (_core/ops_nn.pyx)
handover.provide(ReLUGrad=ReLUGrad)
