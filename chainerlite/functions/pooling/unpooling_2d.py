"""Two-dimensional unpooling."""

from __future__ import annotations

import typing

from chainerlite.functions import _axis_names
from chainerlite.functions.pooling import unpooling_nd

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Unpooling2D(
    _axis_names.Window2D, _axis_names.Outsize2D, unpooling_nd.UnpoolingND
):
    """Unpooling: copies each element over its window of the output."""

    function_name = 'unpooling_2d'
    declares_no_retained = False

    def __init__(self, ksize, stride=None, pad=0, outsize=None, cover_all=True):
        super().__init__(2, ksize, stride, pad, outsize, cover_all)

    def backward(self, indexes, grad_outputs):
        return Unpooling2DGrad(self).apply(grad_outputs)


class Unpooling2DGrad(unpooling_nd.UnpoolingNDGrad):
    """Gradient of 2-D unpooling (Chainer's name and constructor): sums the
    gradient over each window of ``unpooling2d``, the unpooling node (after
    its forward)."""

    def __init__(self, unpooling2d):
        super().__init__(unpooling2d)


def unpooling_2d(
    x: Variable | NdArray, ksize, stride=None, pad=0, outsize=None, cover_all=True
) -> Variable:
    """Inverse operation of pooling for 2-D images.

    Each input element is copied to every position of its ``ksize`` window
    of the output; values of overlapping windows are summed. It is the
    transpose of a sum pooling with the same parameters.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, c, h, w)``.
        ksize (int or pair of ints): Window size; ``k`` means ``(k, k)``.
        stride (int or pair of ints or None): Stride; ``None`` means
            ``ksize``.
        pad (int or pair of ints): Padding cut from each side of the output.
        outsize (None or pair of ints): Output height and width. ``None``
            picks the size whose pooling gives ``(h, w)``; a given size must
            pool to ``(h, w)``.
        cover_all (bool): Whether the pooling this inverts covered all of
            its input (see :func:`max_pooling_2d`).

    Returns:
        Variable: Output of shape ``(n, c, out_h, out_w)`` and the dtype of
        ``x``.

    Raises:
        ValueError: If ``ksize`` or ``stride`` is not a positive int (or a
            pair of them), or ``pad`` is not a non-negative one.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[[[1, 2], [3, 4]]]], np.float32)
        >>> F.unpooling_2d(x, 2, cover_all=False).array[0, 0]
        array([[1., 1., 2., 2.],
               [1., 1., 2., 2.],
               [3., 3., 4., 4.],
               [3., 3., 4., 4.]], dtype=float32)

    """
    return Unpooling2D(ksize, stride, pad, outsize, cover_all).apply((x,))[0]
