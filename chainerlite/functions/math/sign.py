"""Elementwise sign (not differentiable)."""

from __future__ import annotations

import typing

from chainerlite.functions.math import _detached

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def sign(x: Variable | NdArray) -> Variable:
    """Elementwise sign function.

    .. math::
        \\mathrm{sgn}(x) = \\begin{cases}
            -1 & \\text{if } x < 0 \\\\
            0 & \\text{if } x = 0 \\\\
            1 & \\text{if } x > 0
        \\end{cases}

    The result is not connected to the computational graph: the gradient of
    this function is ``None`` everywhere, so no gradient flows back to
    ``x``.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.

    Returns:
        Variable: Output variable with the shape and dtype of ``x`` and
        ``requires_grad=False``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.sign(np.array([-2., 0., 3.], np.float32)).array
        array([-1.,  0.,  1.], dtype=float32)

    """
    return _detached.apply_detached('sign', x)
