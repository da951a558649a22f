"""Gaussian error linear unit (not part of Chainer 7.8.1)."""

from __future__ import annotations

import math
import typing

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite._core import act_kernels
from chainerlite.backends import cuda
from chainerlite.functions.activation import _cpu_kernels
from chainerlite.functions.activation import _kernels
from chainerlite.functions.math import exponential
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable

_erfc_cpu = numpy.vectorize(math.erfc, otypes=[numpy.float64])


def _normal_cdf(x, xp):
    # Phi(x) = erfc(-x / sqrt(2)) / 2 keeps full relative precision in the
    # left tail, where 1 + erf(x / sqrt(2)) would cancel.
    if _cpu_kernels.takes(x):
        return _cpu_kernels.elementwise(act_kernels.normal_cdf, (x,))
    t = -x / math.sqrt(2)
    if xp is numpy:
        return (_erfc_cpu(t) * 0.5).astype(x.dtype)
    from cupyx.scipy import special

    return special.erfc(t) * 0.5


def _normal_pdf(x):
    return exponential.exp(x * x * -0.5) * (1 / math.sqrt(2 * math.pi))


class _NormalCDF(function_node.FunctionNode):
    """Cumulative distribution function of the standard normal."""

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        return (utils.force_array(_normal_cdf(x, xp), x.dtype),)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        return (grad_outputs[0] * _normal_pdf(x),)


class GELU(function_node.FunctionNode):
    """Gaussian error linear unit ``x * Phi(x)``."""

    @type_check.only_kinds('f')
    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        if xp is cuda.cupy:
            return (_kernels.gelu_fwd(x),)
        if _cpu_kernels.takes(x):
            return (_cpu_kernels.elementwise(act_kernels.gelu, (x,)),)
        return (utils.force_array(x * _normal_cdf(x, xp), x.dtype),)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (cdf,) = _NormalCDF().apply((x,))
        return (grad_outputs[0] * (cdf + x * _normal_pdf(x)),)

    def _backward_arrays(self, indexes, grad_outputs):
        # one fused kernel on the GPU, a compiled one on the CPU; None (the
        # graph path) for the inputs neither takes
        x, gy = self.inputs[0].data, grad_outputs[0]
        if isinstance(x, cuda.ndarray):
            return (_kernels.gelu_bwd(x, gy),)
        if _cpu_kernels.takes(x, gy):
            return (_cpu_kernels.elementwise(act_kernels.gelu_grad, (x, gy)),)
        return None


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
