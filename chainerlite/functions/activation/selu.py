"""Scaled exponential linear unit."""

from __future__ import annotations

import typing

from chainerlite.functions.activation import elu

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def selu(
    x: Variable | NdArray,
    alpha=1.6732632423543772848170429916717,
    scale=1.0507009873554804934193349852946,
) -> Variable:
    """Scaled exponential linear unit function.

    .. math::
        f(x) = \\lambda \\begin{cases} x & (x \\ge 0) \\\\
               \\alpha (\\exp(x) - 1) & (x < 0) \\end{cases}

    where :math:`\\lambda` is ``scale``. It is ``scale`` times
    :func:`~chainerlite.functions.elu`, so invalid inputs are reported by
    the ``ELU`` node. The default parameters are those of `Self-Normalizing
    Neural Networks <https://arxiv.org/abs/1706.02515>`_.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        alpha (float): Scale :math:`\\alpha` of the negative part.
        scale (float): Scale :math:`\\lambda` of the whole output.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([-1, 0, 2], np.float32)
        >>> F.selu(x).array.round(4)
        array([-1.1113,  0.    ,  2.1014], dtype=float32)

    """
    return elu.elu(x, alpha) * scale
