"""Two-dimensional average pooling."""

from __future__ import annotations

import typing

from chainerlite.functions import _axis_names
from chainerlite.functions.pooling import average_pooling_nd

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class AveragePooling2D(average_pooling_nd.AveragePoolingND):
    """Average pooling over windows of 2-D images.

    Takes Chainer's arguments: ``cover_all`` changes nothing (Chainer's
    node has no cover_all mode and pools as if it were ``False``; so does
    this one, whose ``cover_all`` attribute is ``False``), and
    ``return_indices`` is kept (average pooling has no indices).
    ``pad_value`` is as in :func:`average_pooling_2d`.
    """

    function_name = 'average_pooling_2d'
    refuses_empty = False

    # Chainer's attributes of the 2-D node
    kh, kw = _axis_names.per_axis(lambda node: node.ksize, 'kh', 'kw')
    sy, sx = _axis_names.per_axis(lambda node: node.stride, 'sy', 'sx')
    ph, pw = _axis_names.per_axis(lambda node: node.pad, 'ph', 'pw')

    def __init__(
        self,
        ksize,
        stride=None,
        pad=0,
        cover_all=True,
        return_indices=False,
        pad_value=0,
    ):
        super().__init__(2, ksize, stride, pad, pad_value=pad_value)
        self.return_indices = return_indices

    def backward(self, indexes, grad_outputs):
        return AveragePooling2DGrad(self).apply(grad_outputs)


class AveragePooling2DGrad(average_pooling_nd.AveragePoolingNDGrad):
    """Gradient of 2-D average pooling (Chainer's name and constructor):
    spreads each gradient over its window of the input of ``apool2d``, the
    pooling node (after its forward)."""

    def __init__(self, apool2d):
        super().__init__(apool2d)


def average_pooling_2d(
    x: Variable | NdArray, ksize, stride=None, pad=0, pad_value=0
) -> Variable:
    """Spatial average pooling function.

    Each output element is the average of a ``ksize`` window of its input
    channel; windows move by ``stride`` over the padded input. As in
    :func:`convolution_2d` without ``cover_all``, the output height is
    ``(h + 2p - k) // s + 1`` (likewise for the width).

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, c, h, w)``.
        ksize (int or pair of ints): Window size; ``k`` means ``(k, k)``.
        stride (int or pair of ints or None): Stride; ``None`` means
            ``ksize``.
        pad (int or pair of ints): Padding of each side.
        pad_value (0 or None): With ``0`` the padded elements count as
            zeros, which biases the averages of border windows towards zero;
            with ``None`` they are left out of the averages.

    Returns:
        Variable: Output of shape ``(n, c, out_h, out_w)`` and the dtype of
        ``x``.

    Raises:
        ValueError: If ``pad_value`` is neither ``0`` nor ``None``, if
            ``ksize`` or ``stride`` is not a positive int (or a pair of
            them), or if ``pad`` is not a non-negative one.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> F.average_pooling_2d(x, 2).array
        array([[[[ 2.5,  4.5],
                 [10.5, 12.5]]]], dtype=float32)
        >>> F.average_pooling_2d(x, 2, pad=1, pad_value=None).array[0, 0, 0]
        array([0. , 1.5, 3. ], dtype=float32)

    """
    func = AveragePooling2D(ksize, stride, pad, False, pad_value=pad_value)
    return func.apply((x,))[0]
