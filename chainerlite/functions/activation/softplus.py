"""Softplus."""

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
from chainerlite.functions.activation import sigmoid
from chainerlite.functions.array import cast
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Softplus(function_node.FunctionNode):
    """Elementwise softplus ``log(1 + exp(beta x)) / beta``."""

    def __init__(self, beta=1.0):
        self.beta = float(beta)
        self.beta_inv = 1.0 / self.beta

    check_type_forward = type_check.declare_kinds(x='f')

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        if xp is cuda.cupy:
            dtype = x.dtype.type
            return (_kernels.softplus_fwd(x, dtype(self.beta), dtype(self.beta_inv)),)
        y = vec_math.softplus(x, self.beta, self.beta_inv)  # one pass
        if y is not None:
            return (y,)
        bx = x * self.beta
        # log(1 + exp(t)) = max(t, 0) + log(1 + exp(-|t|)): no overflow.
        y = (xp.maximum(bx, 0) + xp.log1p(xp.exp(-abs(bx)))) * self.beta_inv
        return (utils.force_array(y, x.dtype),)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        return SoftplusGrad((self.beta,)).apply((x, grad_outputs[0]))


class SoftplusGrad(function_node.FunctionNode):
    """Gradient of softplus: ``gy * sigmoid(beta x)``.

    Inputs are the softplus input ``x`` and the output gradient ``gy``;
    ``inputs`` holds ``beta`` (Chainer's constructor: ``(beta,)``).
    """

    def __init__(self, inputs):
        self.beta = inputs[0]

    def forward(self, inputs):
        x, gy = inputs
        self.retain_inputs((0, 1))
        # one fused kernel on the GPU; on the CPU the vectorised sigmoid
        # where the machine has it, else a compiled loop where it takes the
        # arrays (scalar exp, 5-8 times slower)
        if isinstance(x, cuda.ndarray):
            return (_kernels.softplus_bwd(x, gy, x.dtype.type(self.beta)),)
        if not vec_math.vec_math_available():
            gx = act.softplus_grad(x, gy, self.beta)
            if gx is not None:
                return (gx,)
        s = utils.force_array(sigmoid._stable_sigmoid(x * self.beta, numpy), x.dtype)
        return (utils.force_array(gy * s),)

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        (g,) = grad_outputs
        ret = []
        if 0 in indexes:
            # d/dx sigmoid(beta x) = beta s (1 - s), s = sigmoid(beta x),
            # with 1 - s taken as sigmoid(-beta x): no cancellation where s
            # rounds near 1 (float16)
            bx = x * self.beta
            if bx.dtype == numpy.float16:
                # F.sigmoid rounds float16 as Chainer does (its tanh form),
                # whose sigmoid(-beta x) keeps only an absolute precision:
                # the product is formed in float32
                wide = cast.cast(bx, numpy.float32)
                s = cast.cast(sigmoid.sigmoid(wide) * sigmoid.sigmoid(-wide), bx.dtype)
            else:
                s = sigmoid.sigmoid(bx) * sigmoid.sigmoid(-bx)
            top = backend.get_array_module(bx.array).isposinf(bx.array)
            if top.any():
                # NaN at beta x = +inf, as Chainer's e / (1 + e)**2 gives
                s = s * utils.force_array(numpy.where(top, numpy.nan, 1.0), s.dtype)
            ret.append(g * gy * self.beta * s)
        if 1 in indexes:
            ret.append(SoftplusGrad((self.beta,)).apply((x, g))[0])
        return tuple(ret)


def softplus(x: Variable | NdArray, beta=1.0) -> Variable:
    """Elementwise softplus function.

    .. math::
        f(x) = \\frac{1}{\\beta} \\log(1 + \\exp(\\beta x))

    It is computed without overflow for large :math:`|\\beta x|`.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        beta (float): Parameter :math:`\\beta`.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([-1000., -1., 0., 1., 1000.])
        >>> F.softplus(x).array.round(4).tolist()
        [0.0, 0.3133, 0.6931, 1.3133, 1000.0]

    """
    return Softplus(beta).apply((x,))[0]
