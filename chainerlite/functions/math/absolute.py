"""Elementwise absolute value."""

from __future__ import annotations

import typing

from chainerlite.functions.math import basic_math

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def absolute(x: Variable | NdArray) -> Variable:
    """Elementwise absolute value function.

    .. math::
        y_i = |x_i|

    Its gradient is the sign of ``x`` (zero at zero). It is the function
    behind ``abs(variable)``.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.absolute(np.array([-2., 0., 3.], np.float32)).array
        array([2., 0., 3.], dtype=float32)

    """
    return basic_math.Absolute().apply((x,))[0]
