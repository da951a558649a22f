"""Hyperbolic tangent."""

from __future__ import annotations

import typing

from chainerlite._core import ops_nn

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


#: Hyperbolic tangent node, compiled (``chainerlite._core.ops_nn``).
Tanh = ops_nn.Tanh


class TanhGrad(ops_nn.TanhGrad):
    """Chainer's name and constructor of tanh's gradient node: applied to
    ``(y, gy)`` (the tanh output and its gradient), ``gy * (1 - y * y)``,
    the compiled node tanh's backward applies (its backward is that node's
    second order). ``x``, tanh's input, is kept as Chainer keeps it (for
    cuDNN, which chainerlite does not call); it may be None."""

    def __init__(self, x):
        super().__init__()
        self.x = x

    def forward_cpu(self, inputs):
        return self.forward(inputs)

    def forward_gpu(self, inputs):
        return self.forward(inputs)


def tanh(x: Variable | NdArray) -> Variable:
    """Elementwise hyperbolic tangent function.

    .. math::
        f(x) = \\tanh(x)

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([-1, 0, 2], np.float32)
        >>> F.tanh(x).array.round(4)
        array([-0.7616,  0.    ,  0.964 ], dtype=float32)

    """
    return ops_nn.tanh(x)
