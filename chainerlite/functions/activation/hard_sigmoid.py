"""Hard (piecewise linear) sigmoid."""

from __future__ import annotations

import typing

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.backends import cuda
from chainerlite.functions.activation import _kernels
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class HardSigmoid(function_node.FunctionNode):
    """Hard sigmoid: ``clip(0.2 x + 0.5, 0, 1)``."""

    check_type_forward = type_check.declare_kinds(x='f')

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        if xp is cuda.cupy:
            return (_kernels.hard_sigmoid_fwd(x),)
        return (utils.force_array(xp.clip(x * 0.2 + 0.5, 0, 1), x.dtype),)

    def backward(self, indexes, grad_outputs):
        return HardSigmoidGrad(self.inputs[0].data).apply(grad_outputs)


class HardSigmoidGrad(function_node.FunctionNode):
    """Gradient of the hard sigmoid: ``0.2 gy`` where ``-2.5 < x < 2.5``,
    0 elsewhere; linear in its one input, the output gradient ``gy``.

    Args:
        x (numpy.ndarray or cupy.ndarray): Input of the hard sigmoid.

    """

    def __init__(self, x):
        self.x = x

    def forward(self, inputs):
        (gy,) = inputs
        x = self.x
        if isinstance(x, cuda.ndarray):
            return (_kernels.hard_sigmoid_bwd(x, gy),)
        dtype = x.dtype.type
        slope = numpy.where((-2.5 < x) & (x < 2.5), dtype(0.2), dtype(0))
        return (utils.force_array(gy * utils.force_array(slope)),)

    def backward(self, indexes, grad_outputs):
        return HardSigmoidGrad(self.x).apply(grad_outputs)


def hard_sigmoid(x: Variable | NdArray) -> Variable:
    """Elementwise hard-sigmoid function.

    .. math::
        f(x) = \\begin{cases} 0 & (x < -2.5) \\\\
                              0.2 x + 0.5 & (-2.5 \\le x \\le 2.5) \\\\
                              1 & (2.5 < x) \\end{cases}

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([-2.6, -1, 0, 1, 2.6], np.float32)
        >>> F.hard_sigmoid(x).array
        array([0. , 0.3, 0.5, 0.7, 1. ], dtype=float32)

    """
    return HardSigmoid().apply((x,))[0]
