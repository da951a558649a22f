"""Exponential linear unit."""

from __future__ import annotations

import typing

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.backends import cuda
from chainerlite.functions.activation import _kernels
from chainerlite.functions.array import where
from chainerlite.functions.math import exponential
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
        self.retain_inputs((0,))
        if xp is cuda.cupy:
            return (_kernels.elu_fwd(x, x.dtype.type(self.alpha)),)
        negative = xp.minimum(x, 0)
        y = xp.where(x >= 0, x, self.alpha * xp.expm1(negative))
        return (utils.force_array(y, x.dtype),)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        return ELUGrad(self.alpha).apply((x, grad_outputs[0]))


class ELUGrad(function_node.FunctionNode):
    """Gradient of the ELU: ``gy`` where ``x > 0``, ``gy alpha exp(x)``
    elsewhere (``x = 0`` and NaN included, as in Chainer).

    Inputs are the ELU input ``x`` and the output gradient ``gy``.
    """

    def __init__(self, alpha):
        self.alpha = alpha

    def forward(self, inputs):
        x, gy = inputs
        self.retain_inputs((0, 1))
        if isinstance(x, cuda.ndarray):
            return (_kernels.elu_bwd(x, gy, x.dtype.type(self.alpha)),)
        positive = utils.force_array(x > 0)
        rest = numpy.where(positive, numpy.zeros_like(x), x)
        coef = numpy.exp(rest) * (self.alpha * utils.force_array(~positive, x.dtype))
        coef += utils.force_array(positive, x.dtype)
        # NumPy 1 gives float64 for 0-d arrays times a Python float
        return (utils.force_array(gy * coef, x.dtype),)

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        (g,) = grad_outputs
        ret = []
        if 0 in indexes:
            # d/dx of the slope: alpha exp(x) where x is not positive
            xs = x.array
            positive = utils.force_array(xs > 0)
            xp = backend.get_array_module(xs)
            rest = where.where(positive, xp.zeros_like(xs), x)
            notpos = utils.force_array(~positive, xs.dtype)
            ret.append(g * gy * (exponential.exp(rest) * (self.alpha * notpos)))
        if 1 in indexes:
            ret.append(ELUGrad(self.alpha).apply((x, g))[0])
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
