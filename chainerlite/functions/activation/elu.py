"""Exponential linear unit."""

from __future__ import annotations

import typing

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite._kernels import act
from chainerlite._kernels import vec_math
from chainerlite.backends import cuda
from chainerlite.functions.activation import _kernels
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class ELU(function_node.FunctionNode):
    """Exponential linear unit."""

    def __init__(self, alpha=1.0):
        self.alpha = float(alpha)

    check_type_forward = type_check.declare_kinds(x='f')

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        # As Chainer: the output is kept; the input only where a negative
        # alpha makes the output's sign differ from the input's.
        if self.alpha < 0:
            self.retain_inputs((0,))
        self.retain_outputs((0,))
        if xp is cuda.cupy:
            return (_kernels.elu_fwd(x, x.dtype.type(self.alpha)),)
        y = vec_math.elu(x, self.alpha)  # one pass where the machine has it
        if y is not None:
            return (y,)
        negative = xp.minimum(x, 0)
        y = xp.where(x >= 0, x, self.alpha * xp.expm1(negative))
        return (utils.force_array(y, x.dtype),)

    def backward(self, indexes, grad_outputs):
        (y,) = self.get_retained_outputs()
        cond = self.get_retained_inputs()[0] if self.alpha < 0 else y
        return ELUGrad(self.alpha, cond.array).apply((y, grad_outputs[0]))


class ELUGrad(function_node.FunctionNode):
    """Gradient of the ELU from its output ``y``: ``gy`` where the input was
    positive (``cond > 0``), ``gy (y + alpha)`` elsewhere (``alpha exp(x)``;
    ``x = 0`` and NaN included, as in Chainer).

    Inputs are the ELU output ``y`` and the output gradient ``gy``;
    ``cond`` is the input (or, for ``alpha >= 0``, the output: same sign).
    """

    def __init__(self, alpha, cond):
        self.alpha = alpha
        self.cond = cond

    def forward(self, inputs):
        y, gy = inputs
        self.retain_inputs((0, 1))
        if isinstance(y, cuda.ndarray):
            return (_kernels.elu_bwd(self.cond, y, gy, y.dtype.type(self.alpha)),)
        gx = act.elu_grad(self.cond, y, gy, self.alpha)  # one pass
        if gx is not None:
            return (gx,)
        one, alpha = y.dtype.type(1), y.dtype.type(self.alpha)
        slope = numpy.where(self.cond > 0, one, y + alpha)
        return (utils.force_array(gy * slope, y.dtype),)

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        (g,) = grad_outputs
        ret = []
        if 0 in indexes:
            # d(y + alpha)/dy is 1 where the input was not positive
            notpos = utils.force_array(self.cond <= 0, y.dtype)
            ret.append(g * gy * notpos)
        if 1 in indexes:
            ret.append(ELUGrad(self.alpha, self.cond).apply((y, g))[0])
        return tuple(ret)


def elu(x: Variable | NdArray, alpha=1.0) -> Variable:
    """Exponential linear unit function.

    .. math::
        f(x) = \\begin{cases} x & (x \\ge 0) \\\\
                              \\alpha (\\exp(x) - 1) & (x < 0) \\end{cases}

    See `Fast and Accurate Deep Network Learning by Exponential Linear Units
    (ELUs) <https://arxiv.org/abs/1511.07289>`_.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        alpha (float): Scale :math:`\\alpha` of the negative part.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[-1, 0], [2, -3]], np.float32)
        >>> F.elu(x, alpha=1.0).array.round(4)
        array([[-0.6321,  0.    ],
               [ 2.    , -0.9502]], dtype=float32)

    """
    return ELU(alpha).apply((x,))[0]
