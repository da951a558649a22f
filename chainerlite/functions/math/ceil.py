"""Elementwise ceiling (not differentiable)."""

from __future__ import annotations

import typing

from chainerlite.functions.math import _detached

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def ceil(x: Variable | NdArray) -> Variable:
    """Elementwise ceiling function.

    .. math::
        y_i = \\lceil x_i \\rceil

    The result is not connected to the computational graph: no gradient
    flows back to ``x``.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.

    Returns:
        Variable: Output variable with the shape and dtype of ``x`` and
        ``requires_grad=False``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.ceil(np.array([-1.5, 0.5, 2.], np.float32)).array
        array([-1.,  1.,  2.], dtype=float32)

    """
    return _detached.apply_detached('ceil', x)
