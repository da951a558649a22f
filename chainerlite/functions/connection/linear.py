"""Fully-connected (linear) layer and the nodes of its gradients."""

from __future__ import annotations

import typing

from chainerlite._core import ops_nn
from chainerlite import utils
from chainerlite.functions.array import reshape

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


#: Linear function node ``y = x W^T + b``, compiled
#: (``chainerlite._core.ops_nn``), and the compiled nodes its backward applies:
#: ``LinearGradData()`` of ``(W, gy)`` and ``LinearGradWeight(W.dtype)`` of
#: ``(x, gy)``.
LinearFunction = ops_nn.LinearFunction
LinearGradData = ops_nn.LinearGradData
LinearGradWeight = ops_nn.LinearGradWeight


def linear(
    x: Variable | NdArray,
    W: Variable | NdArray,
    b: Variable | NdArray | None = None,
    n_batch_axes=1,
) -> Variable:
    """Linear function, also called a fully-connected layer.

    It computes ``y = x W^T + b``. The leading ``n_batch_axes`` axes of
    ``x`` are batch axes; the remaining axes are flattened into one input
    axis of size ``N``.

    .. math::
        y_{i} = W x_{i} + b

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(s_1, ..., s_n, ...)`` whose trailing axes hold ``N`` elements.
        W (Variable or numpy.ndarray or cupy.ndarray): Weight of shape
            ``(M, N)``.
        b (Variable or numpy.ndarray or cupy.ndarray): Bias of shape
            ``(M,)``, or ``None`` for no bias.
        n_batch_axes (int): Number of leading batch axes of ``x``; at least
            one.

    Returns:
        Variable: Output of shape ``(s_1, ..., s_n, M)``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.ones((2, 3), np.float32)
        >>> W = np.arange(12, dtype=np.float32).reshape(4, 3)
        >>> b = np.full(4, 0.5, np.float32)
        >>> F.linear(x, W, b).array
        array([[ 3.5, 12.5, 21.5, 30.5],
               [ 3.5, 12.5, 21.5, 30.5]], dtype=float32)

    """
    if n_batch_axes == 1 and ops_nn.is_2d(x):
        return ops_nn.linear2d(x, W, b)  # the common case, all compiled
    if n_batch_axes <= 0:
        raise ValueError('n_batch_axes should be greater than 0.')
    batch_shape = x.shape[:n_batch_axes]
    if n_batch_axes > 1 or x.ndim > 2:
        x = reshape.reshape(x, (utils.size_of_shape(batch_shape), -1))
    y = ops_nn.linear2d(x, W, b)
    if n_batch_axes > 1:
        y = reshape.reshape(y, batch_shape + (-1,))
    return y
