"""Hyperbolic tangent."""

from __future__ import annotations

import typing

from chainerlite._core import ops_nn

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


#: Hyperbolic tangent node, compiled (``chainerlite._core.ops_nn``).
Tanh = ops_nn.Tanh


def tanh(x: Variable | NdArray) -> Variable:
    """Elementwise hyperbolic tangent function.

    .. math::
        f(x) = \\tanh(x)

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([-1, 0, 2], np.float32)
        >>> F.tanh(x).array.round(4)
        array([-0.7616,  0.    ,  0.964 ], dtype=float32)

    """
    return ops_nn.tanh(x)
