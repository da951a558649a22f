"""Elementwise remainder of a division, with the sign of the dividend."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import sum_to as sum_to_module
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Fmod(function_node.FunctionNode):
    """Elementwise ``fmod(x, divisor)`` (inputs broadcast together)."""

    @property
    def label(self):
        return 'fmod'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'divisor'))
        type_check.expect(
            in_types[0].dtype == in_types[1].dtype,
            in_types[0].dtype.kind == 'f',
            in_types[1].dtype.kind == 'f',
        )
        type_check.expect_broadcast_shapes(in_types[0].shape, in_types[1].shape)

    def forward(self, inputs):
        x, divisor = inputs
        xp = backend.get_array_module(x, divisor)
        self.retain_inputs((0, 1))
        return (utils.force_array(xp.fmod(x, divisor), x.dtype),)

    def backward(self, indexes, grad_outputs):
        x, divisor = self.get_retained_inputs()
        (gy,) = grad_outputs
        xp = backend.get_array_module(x)
        # y = x - trunc(x / divisor) * divisor, where the truncated quotient
        # is piecewise constant, hence a constant of the gradient graph.
        quotient = utils.force_array(xp.trunc(x.array / divisor.array), gy.dtype)
        return (
            sum_to_module.sum_to(gy, x.shape),
            sum_to_module.sum_to(gy * -quotient, divisor.shape),
        )


def fmod(x: Variable | NdArray, divisor) -> Variable:
    """Elementwise mod function.

    It computes the remainder of ``x / divisor`` with the sign of ``x``, as
    the C library's ``fmod``.

    .. math::
        y_i = x_i \\bmod \\mathrm{divisor}_i

    The gradient is ``1`` for ``x`` and ``-trunc(x / divisor)`` for
    ``divisor``; the function jumps where ``x / divisor`` is an integer.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Dividend, of a floating
            point dtype.
        divisor (Variable or numpy.ndarray or cupy.ndarray): Divisor, of the
            dtype of ``x``. The shapes of ``x`` and ``divisor`` are broadcast
            together.

    Returns:
        Variable: Output variable with the broadcast shape and the dtype of
        the inputs.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([-3., -2., 2., 3.], np.float32)
        >>> F.fmod(x, np.array(2., np.float32)).array
        array([-1., -0.,  0.,  1.], dtype=float32)

    """
    return Fmod().apply((x, divisor))[0]
