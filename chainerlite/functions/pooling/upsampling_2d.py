"""Two-dimensional upsampling with max pooling indices."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite.functions import _axis_names
from chainerlite.functions.pooling import pooling_nd
from chainerlite.functions.pooling import unpooling_nd
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Upsampling2D(_axis_names.Window2D, _axis_names.Outsize2D, pooling_nd.PoolingND):
    """Upsampling: puts each element at its indexed place in its window.

    Args:
        indexes (numpy.ndarray or cupy.ndarray): Positions in the flattened
            windows, as returned by ``max_pooling_2d(...,
            return_indices=True)``.
        ksize, stride, pad, outsize, cover_all: As in
            :func:`upsampling_2d`.
        ndim (int): Number of spatial axes.

    """

    function_name = 'upsampling_2d'

    def __init__(
        self, indexes, ksize, stride=None, pad=0, outsize=None, cover_all=True, ndim=2
    ):
        super().__init__(ndim, ksize, stride, pad, cover_all)
        self.indexes = indexes
        unpooling_nd.set_outsize(self, outsize)

    def check_type_forward(self, in_types):
        super().check_type_forward(in_types)
        (x_type,) = in_types
        type_check.expect(x_type.shape == self.indexes.shape)
        unpooling_nd.check_outsize(self, x_type)

    def forward(self, inputs):
        (x,) = inputs
        unpooling_nd.default_outsize(self, x.shape[2:])
        self.window_indexes = self._checked_indexes()
        return (pooling_nd.scatter_windows(x, self.window_indexes, self, self.outs),)

    def _checked_indexes(self):
        # a negative index counts from the end of the window, as Chainer
        # 7.8.1's NumPy indexing takes it; one outside the window is its
        # IndexError (it would drop its value silently here)
        size = 1
        for k in self.ksize:
            size *= k
        idx = self.indexes
        if not idx.size:
            return idx
        low, high = int(idx.min()), int(idx.max())
        if low < -size or high >= size:
            raise IndexError(
                f'upsampling_2d: index {low if low < -size else high} is out '
                f'of bounds for a window of {size} elements (ksize '
                f'{tuple(self.ksize)})'
            )
        if low >= 0:
            return idx
        xp = backend.get_array_module(idx)
        return xp.where(idx < 0, idx + size, idx)

    def backward(self, indexes, grad_outputs):
        return Upsampling2DGrad(self).apply(grad_outputs)


class Upsampling2DGrad(pooling_nd.PoolingND):
    """Gradient of upsampling: reads the indexed element of each window.

    Args:
        upsampling2d (Upsampling2D): The upsampling node (after its
            forward).

    """

    function_name = 'upsampling_2d'

    def __init__(self, upsampling2d):
        super().__init__(**upsampling2d.window_params())
        self.indexes = upsampling2d.window_indexes
        self.outsize = upsampling2d.outs

    def forward(self, inputs):
        (gy,) = inputs
        return (pooling_nd.gather_windows(gy, self.indexes, self),)

    def backward(self, indexes, grad_outputs):
        func = Upsampling2D(self.indexes, outsize=self.outsize, **self.window_params())
        return func.apply(grad_outputs)


def upsampling_2d(
    x: Variable | NdArray,
    indexes,
    ksize,
    stride=None,
    pad=0,
    outsize=None,
    cover_all=True,
) -> Variable:
    """Upsampling using pooling indices.

    This is the partial inverse of :func:`max_pooling_2d`: each input
    element goes to the position of its window that ``indexes`` names (the
    place the maximum was taken from), and the rest of the output is zero.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, c, h, w)``.
        indexes (numpy.ndarray or cupy.ndarray): Integer positions in the
            flattened ``kh * kw`` windows, of the shape of ``x``; as returned
            by ``max_pooling_2d(..., return_indices=True)``. A negative
            one counts from the end of the window, as in NumPy.
        ksize (int or pair of ints): Window size; ``k`` means ``(k, k)``.
        stride (int or pair of ints or None): Stride; ``None`` means
            ``ksize``.
        pad (int or pair of ints): Padding cut from each side of the output.
        outsize (None or pair of ints): Output height and width. ``None``
            picks the size whose pooling gives ``(h, w)``; a given size must
            pool to ``(h, w)``.
        cover_all (bool): Whether the pooling that made ``indexes`` covered
            all of its input.

    Returns:
        Variable: Output of shape ``(n, c, out_h, out_w)`` and the dtype of
        ``x``.

    Raises:
        ValueError: If ``ksize`` or ``stride`` is not a positive int (or a
            pair of them), or ``pad`` is not a non-negative one.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[[[3, 1], [4, 2]]]], np.float32)
        >>> y, indices = F.max_pooling_2d(x, 2, return_indices=True)
        >>> F.upsampling_2d(y, indices, 2, outsize=(2, 2)).array[0, 0]
        array([[0., 0.],
               [4., 0.]], dtype=float32)

    """
    return Upsampling2D(indexes, ksize, stride, pad, outsize, cover_all).apply((x,))[0]
