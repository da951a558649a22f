"""Hurwitz zeta function (needs SciPy)."""

from __future__ import annotations

import typing

from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.math import _scipy_special
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Zeta(function_node.FunctionNode):
    """Hurwitz zeta function of a fixed exponent."""

    def __init__(self, x):
        self.x = x

    @property
    def label(self):
        return 'zeta'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('q',))
        (q_type,) = in_types
        type_check.expect(q_type.dtype.kind == 'f')

    def forward(self, inputs):
        (q,) = inputs
        self.retain_inputs((0,))
        routine = _scipy_special.routine('zeta', q, 'zeta')
        return (utils.force_array(routine(self.x, q), q.dtype),)

    def backward(self, indexes, grad_outputs):
        # d/dq zeta(x, q) = -x zeta(x + 1, q).
        (q,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        return (gy * (-self.x) * zeta(self.x + 1, q),)


def zeta(x: Variable | NdArray, q) -> Variable:
    """Hurwitz zeta function.

    .. math::
        \\zeta(x, q) = \\sum_{k=0}^{\\infty} \\frac{1}{(k + q)^x}

    The gradient flows to ``q`` only. Needs SciPy (or CuPy for GPU arrays);
    raises ImportError without it.

    Args:
        x (numpy.ndarray or cupy.ndarray): The exponent, an array of the
            shape of ``q``.
        q (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``q``.

    """
    return Zeta(x).apply((q,))[0]
