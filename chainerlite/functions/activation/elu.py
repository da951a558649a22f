"""Exponential linear unit."""

from __future__ import annotations

import typing

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

    @type_check.only_kinds('f')
    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

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
        # d/dx = 1 where x > 0 and alpha * exp(x) elsewhere (x = 0 and NaN
        # included, as in Chainer); the exponential only sees x where x is
        # not positive, so it never overflows, and +inf gives 1, not NaN.
        (x,) = self.get_retained_inputs()
        xs = x.array
        positive = utils.force_array(xs > 0)
        rest = where.where(positive, backend.get_array_module(xs).zeros_like(xs), x)
        coef = exponential.exp(rest) * (
            self.alpha * utils.force_array(~positive, xs.dtype)
        )
        return (grad_outputs[0] * (coef + utils.force_array(positive, xs.dtype)),)

    def _backward_arrays(self, indexes, grad_outputs):
        # one fused kernel on the GPU; None (the graph path) on the CPU
        x = self.inputs[0].data
        if isinstance(x, cuda.ndarray):
            return (_kernels.elu_bwd(x, grad_outputs[0], x.dtype.type(self.alpha)),)
        return None


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
