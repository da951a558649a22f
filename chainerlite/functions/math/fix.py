"""Elementwise rounding toward zero (not differentiable)."""

from chainerlite.functions.math import _detached


def fix(x):
    """Rounds each element toward zero.

    .. math::
        y_i = \\operatorname{sign}(x_i) \\lfloor |x_i| \\rfloor

    As :func:`~chainerlite.functions.ceil`, the result is not connected to
    the computational graph: no gradient flows back to ``x``.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.

    Returns:
        Variable: Output variable with the shape and dtype of ``x`` and
        ``requires_grad=False``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.fix(np.array([-1.5, 0.5, 2.7], np.float32)).array
        array([-1.,  0.,  2.], dtype=float32)

    """
    return _detached.apply_detached('fix', x)
