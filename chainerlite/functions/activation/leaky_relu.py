"""Leaky rectified linear unit."""

from __future__ import annotations

import typing

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite._core import ops_math
from chainerlite._kernels import act
from chainerlite.backends import cuda
from chainerlite.functions.activation import _kernels
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class LeakyReLU(function_node.FunctionNode):
    """Leaky rectified linear unit."""

    def __init__(self, slope=0.2):
        self.slope = slope

    check_type_forward = type_check.declare_kinds(x='f')

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        # As Chainer: the output tells the sides apart for a slope >= 0
        # (a slope of 0 included: -inf gives NaN, treated as positive), the
        # input for a negative slope.
        if self.slope >= 0:
            self.retain_outputs((0,))
        else:
            self.retain_inputs((0,))
        if xp is cuda.cupy:
            return (_kernels.leaky_relu_fwd(x, x.dtype.type(self.slope)),)
        # max(x, slope * x) for a slope up to 1 (negative slopes too),
        # min(...) above 1; the slope as an array of x's dtype
        slope = ops_math.scalar_like(self.slope, x)
        if self.slope == 0:
            # x * 0 is NaN at +inf, where the output is +inf
            return (utils.force_array(xp.where(x <= 0, x * slope, x), x.dtype),)
        pick = xp.maximum if self.slope <= 1 else xp.minimum
        return (utils.force_array(pick(x, x * slope), x.dtype),)

    def backward(self, indexes, grad_outputs):
        if self.slope >= 0:
            cond = self.get_retained_outputs()[0].array
        else:
            cond = self.get_retained_inputs()[0].array
        return _LeakyReLUGrad(cond, self.slope).apply(grad_outputs)


class _LeakyReLUGrad(function_node.FunctionNode):
    """Gradient of the leaky ReLU: ``gy`` times the slope at ``x``.

    The slope is ``slope`` where ``x <= 0``, 1 elsewhere (NaN included, as
    in Chainer); also 1 where ``slope * x`` is NaN (``x = -inf``, slope 0),
    whose output Chainer's gradient treats as positive. The node is linear
    in its one input, the output gradient ``gy``.

    Args:
        x (numpy.ndarray or cupy.ndarray): Input of the leaky ReLU, or its
            output where ``slope >= 0`` (on the same side of 0, and NaN
            where ``slope * x`` is).
        slope (float): Slope of its negative part.

    """

    def __init__(self, x, slope):
        self.x = x
        self.slope = slope

    def forward(self, inputs):
        (gy,) = inputs
        x = self.x
        # one fused kernel on the GPU, a compiled one on the CPU where it
        # takes the arrays
        if isinstance(x, cuda.ndarray):
            return (_kernels.leaky_relu_bwd(x, gy, x.dtype.type(self.slope)),)
        gx = act.leaky_relu_grad(x, gy, self.slope)
        if gx is not None:
            return (gx,)
        scaled = x * ops_math.scalar_like(self.slope, x)
        sloped = (x <= 0) & (scaled == scaled)
        slopes = utils.force_array(numpy.where(sloped, self.slope, 1.0), x.dtype)
        return (utils.force_array(gy * slopes),)

    def backward(self, indexes, grad_outputs):
        return _LeakyReLUGrad(self.x, self.slope).apply(grad_outputs)


def leaky_relu(x: Variable | NdArray, slope=0.2) -> Variable:
    """Leaky rectified linear unit function.

    .. math::
        f(x) = \\begin{cases} x & (x \\ge 0) \\\\
                              a x & (x < 0) \\end{cases}

    where :math:`a` is ``slope``.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        slope (float): Slope :math:`a` of the negative part.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[-1, 0], [2, -3]], np.float32)
        >>> F.leaky_relu(x, slope=0.2).array
        array([[-0.2,  0. ],
               [ 2. , -0.6]], dtype=float32)

    """
    return LeakyReLU(slope).apply((x,))[0]
