"""Logistic sigmoid."""

from __future__ import annotations

import typing

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite._core import ops_math
from chainerlite._kernels import vec_math
from chainerlite.backends import cuda
from chainerlite.functions.activation import _kernels
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _stable_sigmoid(x, xp):
    # exp(-|x|) never overflows; 1 / (1 + e) and e / (1 + e) keep full
    # relative precision on both tails. Temporaries are reused and the
    # constant is an array of x's dtype (small arrays are bound by the
    # number of NumPy calls). On NumPy arrays, one vectorised pass of the
    # same operations where the machine has it.
    if xp is numpy:
        y = vec_math.sigmoid(x)
        if y is not None:
            return y
    e = utils.force_array(xp.abs(x))
    xp.negative(e, out=e)
    xp.exp(e, out=e)
    one = ops_math.scalar_like(1, e)
    y = utils.force_array(xp.where(x >= 0, one, e))
    y /= e + one
    return y


def _half_tanh_sigmoid(x, xp):
    # float16: tanh(x / 2) / 2 + 1/2, each step rounded to float16, which
    # is Chainer 7.8.1's result to the bit (the stable form differs by an
    # ulp at a sixth of the inputs). Like Chainer's, it gives 0 below about
    # -9.7, where the stable form still gives the tail's few ulps.
    half = x.dtype.type(0.5)
    y = utils.force_array(xp.tanh(x * half))
    y *= half
    y += half
    return y


class Sigmoid(function_node.FunctionNode):
    """Elementwise logistic sigmoid."""

    check_type_forward = type_check.declare_kinds(x='f')

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_outputs((0,))
        if xp is cuda.cupy:
            return (_kernels.sigmoid_fwd(x),)
        if x.dtype == xp.float16:
            return (_half_tanh_sigmoid(x, xp),)
        return (utils.force_array(_stable_sigmoid(x, xp), x.dtype),)

    def backward(self, indexes, grad_outputs):
        (y,) = self.get_retained_outputs()
        return SigmoidGrad().apply((y, grad_outputs[0]))


class SigmoidGrad(function_node.FunctionNode):
    """Gradient of the sigmoid from its output: ``gy * y * (1 - y)``.

    Inputs are the sigmoid's output ``y`` and the output gradient ``gy``.
    """

    def forward(self, inputs):
        y, gy = inputs
        self.retain_inputs((0, 1))
        if isinstance(y, cuda.ndarray):
            return (_kernels.sigmoid_bwd(y, gy),)
        one = ops_math.scalar_like(1, y)
        # (gy y)(1 - y), Chainer 7.8.1's order (it rounds so in float16)
        return (utils.force_array(gy * y * (one - y)),)

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        (g,) = grad_outputs
        ret = []
        if 0 in indexes:
            # d/dy y (1 - y) = 1 - 2 y
            ret.append(g * gy * (1 - 2 * y))
        if 1 in indexes:
            ret.append(SigmoidGrad().apply((y, g))[0])
        return tuple(ret)


def sigmoid(x: Variable | NdArray) -> Variable:
    """Elementwise sigmoid logistic function.

    .. math::
        f(x) = \\frac{1}{1 + \\exp(-x)}

    The result is accurate on both tails: no overflow for large
    :math:`|x|`, and full relative precision for very negative :math:`x`.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([-1000, -2, 0, 2, 1000], np.float32)
        >>> F.sigmoid(x).array.round(4)
        array([0.    , 0.1192, 0.5   , 0.8808, 1.    ], dtype=float32)

    """
    return Sigmoid().apply((x,))[0]
