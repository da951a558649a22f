"""N-dimensional average pooling and the node of its gradient."""

from __future__ import annotations

import typing

import numpy

from chainerlite import backend
from chainerlite.functions.connection import convolution_nd
from chainerlite.functions.pooling import _taps
from chainerlite.functions.pooling import average_pooling_nd_kernel
from chainerlite.functions.pooling import pooling_nd
from chainerlite.functions.pooling import pooling_nd_kernel
from chainerlite.utils import size_of_shape

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable

# The largest column array of a single window built to sum it as Chainer
# does (see docs/differences.rst for larger ones).
_ONE_WINDOW = 1 << 22


class AveragePoolingND(pooling_nd.PoolingND):
    """Average pooling over windows of N-d images (no cover_all mode).

    Args:
        ndim (int): Number of spatial axes.
        ksize, stride, pad, pad_value: As in :func:`average_pooling_nd`.
        cover_all (bool): Must be ``False`` (``True`` raises ``ValueError``,
            as in Chainer).

    """

    function_name = 'average_pooling_nd'
    refuses_empty = True
    # Chainer's attribute: with pad_value=None, the number of elements of
    # each window that the forward divided by; None otherwise
    width = None

    def __init__(self, ndim, ksize, stride=None, pad=0, cover_all=False, pad_value=0):
        if cover_all is True:
            raise ValueError(
                '{}: `cover_all` mode is not supported yet.'.format(self.function_name)
            )
        if pad_value is not None and pad_value != 0:
            raise ValueError(
                '{}: pad_value must be either 0 or None, not {}.'.format(
                    self.function_name, pad_value
                )
            )
        super().__init__(ndim, ksize, stride, pad, cover_all=False)
        self.pad_value = pad_value

    def divisor(self, xp, dims, outs, dtype):
        """Number of averaged elements: a scalar, or one per window.

        With ``pad_value=None``, the product of the windows' input lengths
        along each axis, multiplied in ``dtype`` as Chainer does (so rounded
        where it passes the dtype's integers).
        """
        if self.pad_value is not None:
            return dtype.type(size_of_shape(self.ksize))
        counts = _taps.window_counts(dims, outs, self.ksize, self.stride, self.pad)
        width = numpy.asarray(counts[0], dtype)
        for axis in counts[1:]:
            width = width[..., None] * numpy.asarray(axis, dtype)
        return xp.asarray(width)

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self._in_shape = x.shape
        outs = self.out_sizes(x.shape[2:])
        if xp is not numpy and self.pad_value is not None:
            return (self._forward_cuda(xp, x, outs),)
        one_window = (
            size_of_shape(outs) == 1
            and x.size * size_of_shape(self.ksize) <= _ONE_WINDOW
        )
        if xp is not numpy or one_window:
            # A column array: NumPy sums the contiguous column of a single
            # window pairwise, which a sum tap by tap would not reproduce.
            col = self.im2col(x)
            if self.pad_value is not None:
                return (col.mean(axis=self.window_axes()),)
            y = col.sum(axis=self.window_axes())
            self.width = self.divisor(xp, x.shape[2:], outs, x.dtype)
            return (y / self.width,)
        # The sums over the taps that reach the image, each added in the C
        # order of the taps from +0 as NumPy's sum of a column array does
        # (the padding's zeros change nothing); with zero padding, a mean:
        # float16 summed in float32.
        acc = x.dtype
        if self.pad_value is not None and acc == numpy.float16:
            acc = numpy.dtype(numpy.float32)
        y = numpy.zeros(x.shape[:2] + outs, acc)
        for _, out, inp in self.reaching_taps(x.shape[2:], outs):
            y[out] += x[inp]
        divisor = self.divisor(xp, x.shape[2:], outs, acc)
        if self.pad_value is None:
            self.width = divisor
        y /= divisor
        return (y.astype(x.dtype, copy=False),)

    def _forward_cuda(self, xp, x, outs):
        # zero padding: the forward kernel of average_pooling_nd_kernel
        dims = x.shape[2:]
        y = xp.empty(x.shape[:2] + outs, x.dtype)
        average_pooling_nd_kernel.kernel(
            average_pooling_nd_kernel.AveragePoolingNDKernelForward, self.ndim
        )(
            xp.ascontiguousarray(x),
            *pooling_nd_kernel.window_args(dims, outs, self),
            x.dtype.type(1.0 / size_of_shape(self.ksize)),
            y,
        )
        return y

    def backward(self, indexes, grad_outputs):
        return AveragePoolingNDGrad(self).apply(grad_outputs)


class AveragePoolingNDGrad(pooling_nd.PoolingND):
    """Gradient of average pooling: spreads each gradient over its window.

    Args:
        apoolnd (AveragePoolingND): The average pooling node (after its
            forward).

    """

    function_name = 'average_pooling_nd'

    def __init__(self, apoolnd):
        super().__init__(**apoolnd.window_params())
        self.apool = apoolnd

    def forward(self, inputs):
        (gy,) = inputs
        xp = backend.get_array_module(gy)
        dims = self.apool._in_shape[2:]
        divisor = self.apool.divisor(xp, dims, gy.shape[2:], gy.dtype)
        if xp is not numpy:
            return (self._forward_cuda(xp, gy / divisor, dims),)
        # As Chainer: with pad_value=None each gradient is divided before it
        # is spread, with zero padding the sums are; spread tap by tap in C
        # order over the taps that reach the image.
        if self.apool.pad_value is None:
            gy = gy / divisor
        gx = numpy.zeros(self.apool._in_shape, gy.dtype)
        for _, out, inp in self.reaching_taps(dims, gy.shape[2:]):
            gx[inp] += gy[out]
        if self.apool.pad_value is not None:
            gx /= divisor
        return (gx,)

    def _forward_cuda(self, xp, gy, dims):
        if self.apool.pad_value is not None:
            # zero padding: the backward kernel of average_pooling_nd_kernel
            gx = xp.empty(self.apool._in_shape, gy.dtype)
            average_pooling_nd_kernel.kernel(
                average_pooling_nd_kernel.AveragePoolingNDKernelBackward, self.ndim
            )(
                xp.ascontiguousarray(gy),
                *pooling_nd_kernel.window_args(dims, gy.shape[2:], self),
                gx,
            )
            return gx
        gcol = xp.broadcast_to(
            gy.reshape(gy.shape[:2] + (1,) * self.ndim + gy.shape[2:]),
            gy.shape[:2] + self.ksize + gy.shape[2:],
        )
        return self.col2im(gcol, dims)

    def backward(self, indexes, grad_outputs):
        a = self.apool
        func = AveragePoolingND(a.ndim, a.ksize, a.stride, a.pad, pad_value=a.pad_value)
        return func.apply(grad_outputs)


def average_pooling_nd(
    x: Variable | NdArray, ksize, stride=None, pad=0, pad_value=0
) -> Variable:
    """N-dimensionally spatial average pooling function.

    The N-d generalisation of :func:`average_pooling_2d`: each output
    element is the average of a ``ksize`` window of its input channel;
    windows move by ``stride`` over the padded input. Along each axis the
    output length is ``(d + 2p - k) // s + 1``.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, c, d_1, ..., d_N)``.
        ksize (int or tuple of ints): Window size; ``k`` means
            ``(k,) * N``.
        stride (int or tuple of ints or None): Stride; ``None`` means
            ``ksize``.
        pad (int or tuple of ints): Padding of each side.
        pad_value (0 or None): With ``0`` the padded elements count as
            zeros; with ``None`` they are left out of the averages.

    Returns:
        Variable: Output of shape ``(n, c, out_1, ..., out_N)`` and the
        dtype of ``x``.

    Raises:
        ValueError: If ``pad_value`` is neither ``0`` nor ``None``, if
            ``ksize`` or ``stride`` is not a positive int (or ``N`` of
            them), or if ``pad`` is not a non-negative one.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[[1, 3, 2, 6, 4]]], np.float32)
        >>> F.average_pooling_nd(x, 2).array
        array([[[2., 4.]]], dtype=float32)
        >>> F.average_pooling_nd(x, 2, pad=1, pad_value=None).array
        array([[[1. , 2.5, 5. ]]], dtype=float32)

    """
    func = AveragePoolingND(len(x.shape) - 2, ksize, stride, pad, pad_value=pad_value)
    return func.apply((x,))[0]


def average_pooling_1d(
    x: Variable | NdArray, ksize, stride=None, pad=0, pad_value=0
) -> Variable:
    """1-dimensional average pooling: :func:`average_pooling_nd` of 3-d
    inputs.

    Raises:
        ValueError: If ``x`` is not of shape ``(n, c, d)``.

    """
    convolution_nd.check_spatial_ndim(x, 1, 'average_pooling_1d')
    return average_pooling_nd(x, ksize, stride, pad, pad_value)


def average_pooling_3d(
    x: Variable | NdArray, ksize, stride=None, pad=0, pad_value=0
) -> Variable:
    """3-dimensional average pooling: :func:`average_pooling_nd` of 5-d
    inputs.

    Raises:
        ValueError: If ``x`` is not of shape ``(n, c, d_1, d_2, d_3)``.

    """
    convolution_nd.check_spatial_ndim(x, 3, 'average_pooling_3d')
    return average_pooling_nd(x, ksize, stride, pad, pad_value)
