"""N-dimensional max pooling and the nodes of its gradients."""

from __future__ import annotations

import numpy
import typing

from chainerlite._kernels import pool
from chainerlite import _array_memory
from chainerlite import backend
from chainerlite.functions.connection import convolution_nd
from chainerlite.functions.pooling import max_pooling_nd_kernel
from chainerlite.functions.pooling import pooling_nd
from chainerlite.functions.pooling import pooling_nd_kernel
from chainerlite.utils import size_of_shape

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class MaxPoolingND(pooling_nd.PoolingND):
    """Max pooling over windows of N-d images.

    Args:
        ndim (int): Number of spatial axes.
        ksize, stride, pad, cover_all: As in :func:`max_pooling_nd`.
        return_indices (bool): Kept as given (Chainer's flag that keeps its
            cuDNN path, which keeps no indices, from being taken); every
            forward of this node keeps ``indexes``, the position of each
            maximum in its window.

    """

    function_name = 'max_pooling_nd'
    refuses_empty = True

    def __init__(
        self, ndim, ksize, stride=None, pad=0, cover_all=True, return_indices=False
    ):
        super().__init__(ndim, ksize, stride, pad, cover_all)
        self.return_indices = return_indices

    def forward(self, inputs):
        (x,) = inputs
        self._in_shape = x.shape
        outs = self.out_sizes(x.shape[2:])
        if size_of_shape(self.ksize) > numpy.iinfo(numpy.intp).max:
            raise ValueError(
                '{}: a window of ksize {} has more positions than its indexes '
                '({}) can hold'.format(
                    self.function_name, self.ksize, numpy.dtype(numpy.intp)
                )
            )
        if self.compiled(x):
            return (self._forward_compiled(x, outs),)
        xp = backend.get_array_module(x)
        if xp is not numpy:
            return (self._forward_cuda(xp, x, outs),)
        # The running maximum over the taps that reach the image (the
        # padding's -inf changes nothing; NaN propagates, as in max), and
        # the first tap that holds it, or the first NaN (as argmax gives);
        # a window of -inf (or padding) only keeps the first tap, 0.
        taps = list(self.reaching_taps(x.shape[2:], outs))
        y = xp.full(x.shape[:2] + outs, -numpy.inf, x.dtype)
        self.indexes = xp.zeros(y.shape, dtype=numpy.intp)
        for k, out, inp in taps:
            xp.copyto(self.indexes[out], k, where=x[inp] > y[out])
            xp.maximum(y[out], x[inp], out=y[out])
        nan = xp.isnan(y)
        if nan.any():
            # the windows with NaN: the first NaN, taps in reverse order
            for k, out, inp in reversed(taps):
                xp.copyto(self.indexes[out], k, where=nan[out] & xp.isnan(x[inp]))
        return (y,)

    def _forward_compiled(self, x, outs):
        y = numpy.empty(x.shape[:2] + outs, x.dtype)
        self.indexes = numpy.empty(y.shape, numpy.intp)
        pool.max_pooling_2d(x, y, self.indexes, *self.ksize, *self.stride, *self.pad)
        return y

    def _forward_cuda(self, xp, x, outs):
        # the forward kernel of max_pooling_nd_kernel
        dims = x.shape[2:]
        y = xp.empty(x.shape[:2] + outs, x.dtype)
        self.indexes = xp.empty(y.shape, numpy.intp)
        max_pooling_nd_kernel.kernel(
            max_pooling_nd_kernel.MaxPoolingNDKernelForward, self.ndim
        )(
            xp.ascontiguousarray(x),
            *pooling_nd_kernel.window_args(dims, outs, self),
            y,
            self.indexes,
        )
        return y

    def backward(self, indexes, grad_outputs):
        return MaxPoolingNDGrad(self).apply(grad_outputs)


class MaxPoolingNDGrad(pooling_nd.PoolingND):
    """Gradient of max pooling: routes each gradient to its window's max.

    Args:
        func (MaxPoolingND): The max pooling node (after its forward).

    """

    function_name = 'max_pooling_nd'

    def __init__(self, func):
        super().__init__(**func.window_params())
        self.mpool = func

    def forward(self, inputs):
        (gy,) = inputs
        if self.compiled(gy):
            gx = _array_memory.zeros_to_add_into(numpy, self.mpool._in_shape, gy.dtype)
            pool.max_pooling_2d_grad(
                gy, self.mpool.indexes, gx, *self.ksize, *self.stride, *self.pad
            )
            return (gx,)
        xp = backend.get_array_module(gy)
        if xp is not numpy:
            gx = xp.empty(self.mpool._in_shape, gy.dtype)
            max_pooling_nd_kernel.kernel(
                max_pooling_nd_kernel.MaxPoolingNDKernelBackward, self.ndim
            )(
                xp.ascontiguousarray(gy),
                xp.ascontiguousarray(self.mpool.indexes),
                *pooling_nd_kernel.window_args(gx.shape[2:], gy.shape[2:], self),
                gx,
            )
            return (gx,)
        return (
            pooling_nd.scatter_windows(
                gy, self.mpool.indexes, self, self.mpool._in_shape[2:]
            ),
        )

    def backward(self, indexes, grad_outputs):
        return MaxPoolingNDWithIndexes(self.mpool).apply(grad_outputs)


class MaxPoolingNDWithIndexes(pooling_nd.PoolingND):
    """Max pooling that reuses the argmax positions of an earlier pooling.

    Args:
        func (MaxPoolingND): The max pooling node whose ``indexes`` are
            used.

    """

    function_name = 'max_pooling_nd'

    def __init__(self, func):
        super().__init__(**func.window_params())
        self.mpool = func

    def forward(self, inputs):
        (x,) = inputs
        return (pooling_nd.gather_windows(x, self.mpool.indexes, self),)

    def backward(self, indexes, grad_outputs):
        return MaxPoolingNDGrad(self.mpool).apply(grad_outputs)


def apply_max_pooling(func, x, return_indices):
    """Applies the max pooling node ``func`` to ``x``; with
    ``return_indices``, returns the output and the argmax positions."""
    (y,) = func.apply((x,))
    if return_indices:
        return y, func.indexes
    return y


def max_pooling_nd(
    x: Variable | NdArray,
    ksize,
    stride=None,
    pad=0,
    cover_all=True,
    return_indices=False,
):
    """N-dimensionally spatial max pooling function.

    The N-d generalisation of :func:`max_pooling_2d`: each output element
    is the maximum of a ``ksize`` window of its input channel; windows move
    by ``stride`` over the input padded with ``-inf``. Along each axis, with
    ``d`` the input length, ``k`` the window length, ``s`` the stride and
    ``p`` the padding, the output length is ``(d + 2p - k + s - 1) // s + 1``
    when ``cover_all`` is ``True`` and ``(d + 2p - k) // s + 1`` otherwise.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, c, d_1, ..., d_N)``.
        ksize (int or tuple of ints): Window size; ``k`` means
            ``(k,) * N``.
        stride (int or tuple of ints or None): Stride; ``None`` means
            ``ksize``.
        pad (int or tuple of ints): Padding of each side.
        cover_all (bool): Whether the windows cover all of the input.
        return_indices (bool): Also return the position of each maximum in
            its flattened window.

    Returns:
        Variable or tuple: The output of shape ``(n, c, out_1, ...,
        out_N)`` and the dtype of ``x``; with ``return_indices``, the pair
        of it and the integer array of positions, of the same shape.

    Raises:
        ValueError: If ``ksize`` or ``stride`` is not a positive int (or
            ``N`` of them), or ``pad`` is not a non-negative one.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[[1, 3, 2, 5, 4]]], np.float32)
        >>> F.max_pooling_nd(x, 2).array
        array([[[3., 5., 4.]]], dtype=float32)

    """
    func = MaxPoolingND(len(x.shape) - 2, ksize, stride, pad, cover_all, return_indices)
    return apply_max_pooling(func, x, return_indices)


def max_pooling_1d(
    x: Variable | NdArray,
    ksize,
    stride=None,
    pad=0,
    cover_all=True,
    return_indices=False,
):
    """1-dimensional max pooling: :func:`max_pooling_nd` of 3-d inputs.

    Raises:
        ValueError: If ``x`` is not of shape ``(n, c, d)``.

    """
    convolution_nd.check_spatial_ndim(x, 1, 'max_pooling_1d')
    return max_pooling_nd(x, ksize, stride, pad, cover_all, return_indices)


def max_pooling_2d(
    x: Variable | NdArray,
    ksize,
    stride=None,
    pad=0,
    cover_all=True,
    return_indices=False,
):
    """2-dimensional max pooling: :func:`max_pooling_nd` of 4-d inputs
    (the values of :func:`~chainerlite.functions.max_pooling_2d`).

    Raises:
        ValueError: If ``x`` is not of shape ``(n, c, h, w)``.

    """
    convolution_nd.check_spatial_ndim(x, 2, 'max_pooling_2d')
    return max_pooling_nd(x, ksize, stride, pad, cover_all, return_indices)


def max_pooling_3d(
    x: Variable | NdArray,
    ksize,
    stride=None,
    pad=0,
    cover_all=True,
    return_indices=False,
):
    """3-dimensional max pooling: :func:`max_pooling_nd` of 5-d inputs.

    Raises:
        ValueError: If ``x`` is not of shape ``(n, c, d_1, d_2, d_3)``.

    """
    convolution_nd.check_spatial_ndim(x, 3, 'max_pooling_3d')
    return max_pooling_nd(x, ksize, stride, pad, cover_all, return_indices)
