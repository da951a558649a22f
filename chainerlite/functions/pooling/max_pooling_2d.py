"""Two-dimensional max pooling."""

from __future__ import annotations

import typing

from chainerlite.functions.connection import convolution_nd
from chainerlite.functions.pooling import max_pooling_nd

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class MaxPooling2D(max_pooling_nd.MaxPoolingND):
    """Max pooling over windows of 2-D images."""

    function_name = 'max_pooling_2d'

    @property
    def label(self):
        return 'MaxPoolingND'  # Chainer's 2-D pooling is its N-d node

    def __init__(self, ksize, stride=None, pad=0, cover_all=True):
        super().__init__(2, ksize, stride, pad, cover_all)


def max_pooling_2d(
    x: Variable | NdArray,
    ksize,
    stride=None,
    pad=0,
    cover_all=True,
    return_indices=False,
):
    """Spatial max pooling function.

    Each output element is the maximum of a ``ksize`` window of its input
    channel; windows move by ``stride`` over the input padded with
    ``-inf``. With ``h`` the input height, ``k`` the window height, ``s``
    the stride and ``p`` the padding, the output height is
    ``(h + 2p - k + s - 1) // s + 1`` when ``cover_all`` is ``True`` (every
    input element lies in some window) and ``(h + 2p - k) // s + 1``
    otherwise; likewise for the width.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, c, h, w)``.
        ksize (int or pair of ints): Window size; ``k`` means ``(k, k)``.
        stride (int or pair of ints or None): Stride; ``None`` means
            ``ksize``.
        pad (int or pair of ints): Padding of each side.
        cover_all (bool): Whether the windows cover all of the input.
        return_indices (bool): Also return the position of each maximum in
            its flattened ``kh * kw`` window (as used by
            :func:`upsampling_2d`).

    Returns:
        Variable or tuple: The output of shape ``(n, c, out_h, out_w)``
        and the dtype of ``x``; with ``return_indices``, the pair of it and
        the integer array of positions, of the same shape.

    Raises:
        ValueError: If ``x`` does not have 4 axes, if ``ksize`` or
            ``stride`` is not a positive int (or a pair of them), or ``pad``
            is not a non-negative one.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> F.max_pooling_2d(x, 2).array
        array([[[[ 5.,  7.],
                 [13., 15.]]]], dtype=float32)

    """
    convolution_nd.check_spatial_ndim(x, 2, 'max_pooling_2d')
    func = MaxPooling2D(ksize, stride, pad, cover_all)
    return max_pooling_nd.apply_max_pooling(func, x, return_indices)
