"""Clipping of the elements of a variable to an interval."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Clip(function_node.FunctionNode):
    """Clips the elements of the input to ``[x_min, x_max]``.

    Args:
        x_min (float or None): Lower bound; ``None`` for no lower bound.
        x_max (float or None): Upper bound; ``None`` for no upper bound.

    """

    def __init__(self, x_min, x_max):
        if x_min is None and x_max is None:
            raise ValueError('must set either max or min')
        if x_min is not None and x_max is not None and x_min >= x_max:
            raise ValueError('x_min must be less than x_max.')
        self.x_min = x_min
        self.x_max = x_max

    check_type_forward = type_check.declare_kinds(x='f')

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        return (utils.force_array(xp.clip(x, self.x_min, self.x_max), x.dtype),)

    def backward(self, indexes, grad_outputs):
        x = self.get_retained_inputs()[0].array
        return ClipGrad(x, self.x_min, self.x_max).apply(grad_outputs)


class ClipGrad(function_node.FunctionNode):
    """Gradient of :class:`Clip`: ``gy`` where ``x`` lies in the closed
    interval ``[x_min, x_max]`` (its edges pass the gradient), 0 elsewhere
    (NaN included); linear in ``gy``, so its own gradient is the same node.

    Args:
        x (numpy.ndarray or cupy.ndarray): The clipped input.
        x_min (float or None): Lower bound; ``None`` for none.
        x_max (float or None): Upper bound; ``None`` for none.
    """

    def __init__(self, x, x_min, x_max):
        if x_min is None and x_max is None:
            raise ValueError('must set either max or min')
        if x_min is None:
            self.cond = x <= x_max
        elif x_max is None:
            self.cond = x >= x_min
        else:
            self.cond = (x >= x_min) & (x <= x_max)

    check_type_forward = type_check.declare_kinds(gy='f')

    def forward(self, inputs):
        (gy,) = inputs
        return (gy * utils.force_array(self.cond, gy.dtype),)

    forward_cpu = forward_gpu = forward

    def backward(self, indexes, grad_outputs):
        (ggx,) = grad_outputs
        return (ggx * utils.force_array(self.cond, ggx.dtype),)


def clip(x: Variable | NdArray, x_min, x_max) -> Variable:
    """Clips (limits) the elements of a variable.

    Elements below ``x_min`` become ``x_min`` and elements above ``x_max``
    become ``x_max``. The gradient is passed unchanged inside the closed
    interval ``[x_min, x_max]`` (edges included) and is zero outside.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        x_min (float or None): Minimum value; ``None`` leaves the elements
            unbounded below.
        x_max (float or None): Maximum value; ``None`` leaves the elements
            unbounded above.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    Raises:
        ValueError: If both bounds are ``None``, or if ``x_min >= x_max``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([-2., 0.5, 3.], np.float32)
        >>> F.clip(x, -1., 1.).array
        array([-1. ,  0.5,  1. ], dtype=float32)
        >>> F.clip(x, None, 1.).array
        array([-2. ,  0.5,  1. ], dtype=float32)

    """
    return Clip(x_min, x_max).apply((x,))[0]
