"""Elementwise absolute value."""

from chainerlite.functions.math import basic_math


def absolute(x):
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
