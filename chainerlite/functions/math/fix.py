"""Elementwise rounding toward zero (not differentiable)."""

from __future__ import annotations

import typing

from chainerlite.functions.math import _detached

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def fix(x: Variable | NdArray) -> Variable:
    """Rounds each element toward zero.

    .. math::
        y_i = \\operatorname{sign}(x_i) \\lfloor |x_i| \\rfloor

    No gradient flows back to ``x`` (as for
    :func:`~chainerlite.functions.ceil`): the output has no creator.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): The values to round.

    Returns:
        Variable: The rounded values, of the shape and dtype of ``x``, with
        ``requires_grad=False``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.fix(np.array([-1.5, 0.5, 2.7], np.float32)).array
        array([-1.,  0.,  2.], dtype=float32)

    """
    return _detached.apply_detached('fix', x)
