"""Zoneout: keeps units of the previous state at random during training."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import configuration
from chainerlite import function_node
from chainerlite import utils
from chainerlite import variable
from chainerlite.functions.noise import _random
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Zoneout(function_node.FunctionNode):
    """Zoneout regularization.

    After forward, ``flag_h`` and ``flag_x`` hold the masks that were
    applied (``1`` where the output took ``h``, resp. ``x``, ``0``
    elsewhere), in the dtype of the inputs.
    """

    def __init__(self, zoneout_ratio):
        self.zoneout_ratio = zoneout_ratio

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('h', 'x'))
        h_type, x_type = in_types
        type_check.expect(
            h_type.dtype.kind == 'f',
            x_type.dtype == h_type.dtype,
            x_type.shape == h_type.shape,
        )

    def forward(self, inputs):
        h, x = inputs
        xp = backend.get_array_module(h, x)
        keep_x = _random.rand(xp, x.shape) >= self.zoneout_ratio
        self.flag_x = keep_x.astype(x.dtype)
        self.flag_h = (~keep_x).astype(x.dtype)
        return (utils.force_array(h * self.flag_h + x * self.flag_x),)

    def backward(self, indexes, grad_outputs):
        (gy,) = grad_outputs
        flags = (self.flag_h, self.flag_x)
        return tuple(gy * flags[i] for i in indexes)


def zoneout(h: Variable | NdArray, x: Variable | NdArray, ratio=0.5) -> Variable:
    """Keeps elements of the previous state at random, replacing the input.

    In training mode, each element of the output is the element of ``h``
    (the previous state) with probability ``ratio`` and the element of
    ``x`` (the new state) otherwise (Krueger et al., *Zoneout: Regularizing
    RNNs by Randomly Preserving Hidden Activations*, 2016). Otherwise ``x``
    is returned as it is. The random numbers come from the global generator
    of ``numpy.random`` (or ``cupy.random``).

    Args:
        h (Variable or numpy.ndarray or cupy.ndarray): Previous state, of a
            floating point dtype.
        x (Variable or numpy.ndarray or cupy.ndarray): New state, of the
            shape and dtype of ``h``.
        ratio (float): Probability of keeping an element of ``h``.

    Returns:
        Variable: The output, with the shape and dtype of ``x``.

    Raises:
        chainerlite.utils.type_check.InvalidType: If the shapes or dtypes of
            ``h`` and ``x`` differ (in training mode).

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite
        >>> import chainerlite.functions as F
        >>> h = np.zeros((2, 3), np.float32)
        >>> x = np.ones((2, 3), np.float32)
        >>> F.zoneout(h, x, ratio=1.0).array
        array([[0., 0., 0.],
               [0., 0., 0.]], dtype=float32)
        >>> with chainerlite.using_config('train', False):
        ...     F.zoneout(h, x, ratio=1.0).array
        array([[1., 1., 1.],
               [1., 1., 1.]], dtype=float32)

    """
    if configuration.config.train:
        return Zoneout(ratio).apply((h, x))[0]
    return variable.as_variable(x)
