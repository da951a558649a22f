"""Polygamma function (needs SciPy)."""

from __future__ import annotations

import typing

from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.math import _scipy_special
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class PolyGamma(function_node.FunctionNode):
    """Polygamma function of integer order."""

    @property
    def label(self):
        return 'polygamma'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('n', 'x'))
        n_type, x_type = in_types
        type_check.expect(
            n_type.dtype.kind == 'i',
            x_type.dtype.kind == 'f',
            n_type.shape == x_type.shape,
        )

    def forward(self, inputs):
        n, x = inputs
        self.retain_inputs((0, 1))
        routine = _scipy_special.routine('polygamma', x, 'polygamma')
        return (utils.force_array(routine(n, x), x.dtype),)

    def backward(self, indexes, grad_outputs):
        n, x = self.get_retained_inputs()
        (gy,) = grad_outputs
        return None, gy * polygamma(n + 1, x)


def polygamma(n, x: Variable | NdArray) -> Variable:
    """Polygamma function: the ``n``-th derivative of the digamma function.

    .. math::
        \\psi^{(n)}(x) = \\frac{d^{n+1}}{dx^{n+1}} \\log \\Gamma(x)

    Needs SciPy (or CuPy for GPU arrays); raises ImportError without it.

    Args:
        n (Variable or numpy.ndarray or cupy.ndarray): Non-negative integer
            orders, of the shape of ``x``.
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    """
    return PolyGamma().apply((n, x))[0]
