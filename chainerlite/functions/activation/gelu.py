"""Gaussian error linear unit (not part of Chainer 7.8.1)."""

from __future__ import annotations

import math
import typing

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite._kernels import act
from chainerlite._kernels import vec_math
from chainerlite.backends import cuda
from chainerlite.functions.activation import _kernels
from chainerlite.functions.math import exponential
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable

_erfc_cpu = numpy.vectorize(math.erfc, otypes=[numpy.float64])
#: the standard normal density at 0
_INV_SQRT_2PI = 1 / math.sqrt(2 * math.pi)


def _normal_cdf(x):
    # Phi(x) = erfc(-x / sqrt(2)) / 2 of a NumPy array keeps full relative
    # precision in the left tail, where 1 + erf(x / sqrt(2)) would cancel.
    y = act.normal_cdf(x)
    if y is not None:
        return y
    return (_erfc_cpu(-x / math.sqrt(2)) * 0.5).astype(x.dtype)


class GELU(function_node.FunctionNode):
    """Gaussian error linear unit ``x * Phi(x)``."""

    check_type_forward = type_check.declare_kinds(x='f')

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        if xp is cuda.cupy:
            return (_kernels.gelu_fwd(x),)
        y = vec_math.gelu(x)  # vectorised where the machine has it
        if y is None:
            y = act.gelu(x)
        if y is not None:
            return (y,)
        return (utils.force_array(x * _normal_cdf(x), x.dtype),)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        return GELUGrad().apply((x, grad_outputs[0]))


class GELUGrad(function_node.FunctionNode):
    """Gradient of GELU: ``gy (Phi(x) + x phi(x))``, ``phi`` the normal
    density.

    Inputs are the GELU input ``x`` and the output gradient ``gy``.
    """

    def forward(self, inputs):
        x, gy = inputs
        self.retain_inputs((0, 1))
        # one fused kernel on the GPU, a compiled one on the CPU where it
        # takes the arrays
        if isinstance(x, cuda.ndarray):
            return (_kernels.gelu_bwd(x, gy),)
        gx = vec_math.gelu_grad(x, gy)
        if gx is None:
            gx = act.gelu_grad(x, gy)
        if gx is not None:
            return (gx,)
        cdf = utils.force_array(_normal_cdf(x), x.dtype)
        pdf = numpy.exp(x * x * -0.5) * _INV_SQRT_2PI
        # NumPy 1 gives float64 for 0-d arrays times a Python float
        return (utils.force_array(gy * (cdf + x * pdf), x.dtype),)

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        (g,) = grad_outputs
        ret = []
        if 0 in indexes:
            # d/dx (Phi(x) + x phi(x)) = phi(x) (2 - x^2)
            pdf = exponential.exp(x * x * -0.5) * _INV_SQRT_2PI
            ret.append(g * gy * pdf * (2 - x * x))
        if 1 in indexes:
            ret.append(GELUGrad().apply((x, g))[0])
        return tuple(ret)


def gelu(x: Variable | NdArray) -> Variable:
    """Gaussian error linear unit function.

    .. math::
        f(x) = x \\Phi(x) = \\frac{x}{2}
               \\left(1 + \\mathrm{erf}\\left(\\frac{x}{\\sqrt{2}}\\right)
               \\right)

    where :math:`\\Phi` is the cumulative distribution function of the
    standard normal distribution (the exact form, not the ``tanh``
    approximation). See `Gaussian Error Linear Units (GELUs)
    <https://arxiv.org/abs/1606.08415>`_.

    Chainer 7.8.1 has no ``gelu``; this function is a chainerlite addition.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([-3, -1, 0, 1, 3], np.float32)
        >>> F.gelu(x).array.round(4)
        array([-0.004 , -0.1587,  0.    ,  0.8413,  2.996 ], dtype=float32)

    """
    return GELU().apply((x,))[0]
