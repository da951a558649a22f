"""Rectified linear unit and the node of its gradient."""

from __future__ import annotations

import typing

from chainerlite._core import ops_nn

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


#: Rectified linear unit node, compiled (``chainerlite._core.ops_nn``). Its
#: backward applies ``ReLUGrad``, compiled too: ``ReLUGrad(y)`` passes the
#: output gradient where the ReLU output ``y`` is positive.
ReLU = ops_nn.ReLU
ReLUGrad = ops_nn.ReLUGrad


class ReLUGrad2(ReLUGrad):
    """Chainer's name and constructor of ReLU's gradient node: applied to
    ``(gy,)``, ``gy`` where ``b`` (the ReLU output, or its input: both are
    positive at the same elements) is positive, 0 elsewhere. It is
    ``ReLUGrad`` (whose derivative, the same node, is its second order)."""

    def __init__(self, b):
        super().__init__(b)

    @property
    def b(self):
        return self.y

    def forward_cpu(self, inputs):
        return self.forward(inputs)

    def forward_gpu(self, inputs):
        return self.forward(inputs)


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
