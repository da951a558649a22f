"""Array helpers of the N-d convolution functions.

The parameters of a convolution and the three products it is made of (the
convolution itself, its transpose and the gradient of its filter), on raw
NumPy or CuPy arrays of any number ``N`` of spatial axes.

They use the channel-major column layout ``(c, k_1, ..., k_N, n, out_1,
..., out_N)`` of :func:`chainerlite.utils._windows.im2col`, which is
already the ``(c * prod(k), n * prod(out))`` matrix of their products, so
no large transposed copy is made.
"""

import math

import numpy

from chainerlite._kernels import conv as conv_kernels
from chainerlite._kernels import direct_conv
from chainerlite import backend
from chainerlite.functions.connection import _conv_args
from chainerlite.functions.connection import _onednn_conv
from chainerlite.utils import _chainer_errors
from chainerlite.utils import _windows
from chainerlite.utils import type_check

# dtypes of the compiled layout change of convolve
_COMPILED_DTYPES = (numpy.float32, numpy.float64)
# im2col + BLAS runs over NumPy batches in chunks of images whose column
# matrix takes about this many bytes (one image at least), so that no
# column matrix of the whole batch (activation x kernel) is made, nor kept
# from the forward for the filter gradient (Chainer recomputes it too);
# ResNet-18 steps, one thread: 8 MiB 0.90x the time of 32 MiB at batch 128,
# 128 MiB 1.1-1.17x at batch 32 (2 MiB as 8; L2 is 2 MiB a core here)
_CHUNK_BYTES = 8 * 2**20


def check_inputs(in_types):
    """Type check shared by the convolution functions.

    The inputs are ``x`` and ``W``, of floating point dtypes, and an
    optional bias ``b``.

    Returns:
        tuple: The types of ``x``, ``W`` and ``b`` (``None`` without it).

    """
    n_in = in_types.size()
    type_check.expect(2 <= n_in, n_in <= 3)
    has_bias = type_check.eval(n_in) == 3
    type_check.argname(in_types, ('x', 'W', 'b') if has_bias else ('x', 'W'))
    x_type, w_type = in_types[:2]
    type_check.expect(x_type.dtype.kind == 'f', w_type.dtype.kind == 'f')
    return x_type, w_type, in_types[2] if has_bias else None


def check_bias(b_type, x_type, *shape):
    """Checks that the bias has the dtype of ``x`` and the given shape."""
    type_check.expect(
        b_type.dtype == x_type.dtype,
        b_type.ndim == len(shape),
        *[b_type.shape[i] == n for i, n in enumerate(shape)],
    )


class ConvParams:
    """Stride, padding, dilation and groups of an N-d convolution.

    Args:
        stride (int or tuple of ints): Strides.
        pad (int or tuple of ints): Paddings.
        cover_all (bool or tuple of bools): See
            :func:`~chainerlite.utils.conv.get_conv_outsize`; a tuple gives
            the value for each axis.
        dilate (int or tuple of ints): Dilations.
        groups (int): Number of channel groups.
        where (str): The function that takes them, named in errors.
        ndim (int): Number of spatial axes.

    Only the lengths of ``stride``, ``pad`` and ``dilate`` are checked
    when it is made (and the value of ``dilate`` with ``dilate_now``); the
    values and ``groups`` by :meth:`check`, which
    the node calls after the type check of its inputs (as Chainer 7.8.1
    fails on a bad value only in its forward). ``stride``, ``pad``,
    ``dilate`` and ``groups`` are attributes after :meth:`check`.

    Raises:
        ~chainerlite.utils._chainer_errors.LengthError: If ``stride``,
            ``pad`` or ``dilate`` is a sequence of other than ``ndim``
            values.

    """

    def __init__(
        self, stride, pad, cover_all, dilate, groups, where, ndim=2, dilate_now=False
    ):
        self.ndim = ndim
        for value, name in ((stride, 'stride'), (pad, 'pad'), (dilate, 'dilate')):
            _conv_args.check_length(value, ndim, name, where)
        if dilate_now:
            # Chainer 7.8.1's 2-D nodes refuse a dilation below 1 when they
            # are made, before the type check (its N-d ones not at all)
            self.dilate = _conv_args.int_tuple(dilate, ndim, 'dilate', where)
            dilate = None
        self._given = (stride, pad, dilate, groups, where)
        self.cover_all = _windows.as_tuple(cover_all, ndim)
        # the direct kernels' padded images from the forward to the
        # filter gradient (their cache)
        self._direct_cache = []

    def check(self):
        """Checks the values of the arguments and keeps them as ints
        (tuples of ``ndim`` ints but ``groups``); once.

        Raises:
            ValueError: If ``stride``, ``dilate`` or ``groups`` is not
                positive, or ``pad`` is negative, or one is not an int (of
                Chainer's type too; see
                :func:`~chainerlite.functions.connection._conv_args.int_tuple`).
        """
        if self._given is None:
            return
        stride, pad, dilate, groups, where = self._given
        self.stride = _conv_args.int_tuple(stride, self.ndim, 'stride', where)
        self.pad = _conv_args.int_tuple(pad, self.ndim, 'pad', where, minimum=0)
        if dilate is not None:
            # a zero dilation puts every tap of the filter on the same
            # pixel: the N-d functions compute it, as Chainer 7.8.1's do
            self.dilate = _conv_args.int_tuple(
                dilate, self.ndim, 'dilate', where, minimum=0
            )
        self.groups = _conv_args.positive_int(groups, 'groups', where)
        self._given = None

    def kwargs(self):
        """Keyword arguments of a convolution function, but ``cover_all``."""
        return {
            'stride': self.stride,
            'pad': self.pad,
            'dilate': self.dilate,
            'groups': self.groups,
        }

    def out_size(self, dims, ksize):
        """Output lengths of the convolution of an input of lengths ``dims``.

        Raises:
            ~chainerlite.utils._chainer_errors.OutputSizeError:
                If an output length is not positive (a RuntimeError and an
                AssertionError).

        """
        outs = _windows.out_sizes(
            dims, ksize, self.stride, self.pad, self.cover_all, self.dilate
        )
        for axis, size in enumerate(outs):
            if size <= 0:
                name = (
                    ('Height', 'Width')[axis]
                    if self.ndim == 2
                    else 'Size of axis {}'.format(axis)
                )
                raise _chainer_errors.OutputSizeError(
                    '{} in the output should be positive.'.format(name)
                )
        return outs

    def grouped_columns(self, x, ksize):
        """Channel-major column array of ``x`` as ``groups`` blocks of shape
        ``(c / groups * prod(ksize), n * prod(outs))``."""
        col = _windows.im2col(
            x,
            ksize,
            self.stride,
            self.pad,
            cover_all=self.cover_all,
            dilate=self.dilate,
            channel_major=True,
        )
        rows = col.shape[0] // self.groups
        for k in ksize:
            rows *= k
        # the columns' length spelled out: -1 is ambiguous for a size 0
        return col.reshape(self.groups, rows, math.prod(col.shape[1 + len(ksize) :]))

    def col2im(self, col, dims):
        """Images of lengths ``dims`` summed from a channel-major column
        array."""
        return _windows.col2im(
            col, self.stride, self.pad, dims, self.dilate, channel_major=True
        )


def batch_chunks(x, image_bytes):
    """Slices of the batch axis of ``x`` whose images take about
    ``_CHUNK_BYTES`` of columns at ``image_bytes`` each; the whole batch
    in one for a CuPy array or an empty batch."""
    n = x.shape[0]
    if not isinstance(x, numpy.ndarray) or not n:
        return [slice(0, n)]
    step = max(1, _CHUNK_BYTES // max(1, image_bytes))
    return [slice(i, min(n, i + step)) for i in range(0, n, step)]


def _column_bytes(channels, ksize, dims, dtype):
    # bytes of one image's column matrix
    size = channels * numpy.dtype(dtype).itemsize
    for n in tuple(ksize) + tuple(dims):
        size *= n
    return size


def _channel_major(y, groups):
    # (n, G * c, *dims) -> (G, c, n * prod(dims)); sizes are spelled out (no
    # -1) so that an empty batch, or no channels, reshapes too
    channels = y.shape[1]
    y = y.swapaxes(0, 1)
    return y.reshape(groups, channels // groups, math.prod(y.shape[1:]))


def _to_batch_major(y, b, out):
    # (G, c, n * prod(dims)) -> out (n, G * c, *dims), plus the bias when the
    # compiled pass takes it (then returns True)
    n, c_out = out.shape[:2]
    if (
        isinstance(y, numpy.ndarray)
        and y.size
        and y.dtype == out.dtype in _COMPILED_DTYPES
    ):
        # the layout change and the bias in one compiled pass (which takes
        # aligned arrays only: an unaligned bias is copied, c_O elements)
        if b is not None and not b.flags.aligned:
            b = b.copy()
        conv_kernels.channels_to_batch(
            y.reshape(c_out, -1), b, out.reshape(n, c_out, -1)
        )
        return True
    out[...] = y.reshape((c_out, n) + out.shape[2:]).swapaxes(0, 1)
    return False


def convolve(x, W, params, b=None):
    """Convolution of ``x`` by ``W`` (a cross-correlation) plus the bias.

    Args:
        x (numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, c_I, d_1, ..., d_N)``.
        W (numpy.ndarray or cupy.ndarray): Filters of shape
            ``(c_O, c_I / groups, k_1, ..., k_N)``.
        params (ConvParams): Convolution parameters.
        b (numpy.ndarray or cupy.ndarray): Bias of shape ``(c_O,)`` and
            the dtype of ``x``, or ``None``.

    Returns:
        numpy.ndarray or cupy.ndarray: Output of shape
        ``(n, c_O, out_1, ..., out_N)`` and the dtype of ``x``.

    """
    xp = backend.get_array_module(x, W)
    c_out, ksize = W.shape[0], W.shape[2:]
    outs = params.out_size(x.shape[2:], ksize)
    out = _onednn_conv.convolve(x, W, b, params, outs)
    if out is not None:
        return out
    out = direct_conv.conv2d(x, W, b, cache=params._direct_cache, **params.kwargs())
    if out is not None:
        return out
    groups = params.groups
    W = W.reshape(groups, c_out // groups, math.prod(W.shape[1:]))
    if isinstance(b, numpy.ndarray):
        b = numpy.ascontiguousarray(b)
    out = xp.empty((x.shape[0], c_out) + tuple(outs), x.dtype)
    image_bytes = _column_bytes(x.shape[1], ksize, outs, x.dtype)
    for s in batch_chunks(x, image_bytes):
        # (G * c_I * prod(k), n * prod(outs)) of the chunk in G blocks
        y = xp.matmul(W, params.grouped_columns(x[s], ksize))
        biased = _to_batch_major(y, b, out[s])
    return out if b is None or biased else add_bias(out, b)


def add_bias(y, b):
    """Adds the per-channel bias ``b`` to ``y`` of shape ``(n, c, ...)``
    in place and returns it."""
    y += b.reshape((1, -1) + (1,) * (y.ndim - 2))
    return y


def convolve_transpose(x, W, dims, params):
    """Transposed convolution of ``x`` by ``W`` (no bias).

    It is the gradient of :func:`convolve` with respect to its input.

    Args:
        x (numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, c_I, in_1, ..., in_N)``.
        W (numpy.ndarray or cupy.ndarray): Filters of shape
            ``(c_I, c_O / groups, k_1, ..., k_N)``.
        dims (tuple of int): Output lengths.
        params (ConvParams): Convolution parameters.

    Returns:
        numpy.ndarray or cupy.ndarray: Output of shape
        ``(n, c_O, d_1, ..., d_N)`` and the dtype of ``x``.

    """
    xp = backend.get_array_module(x, W)
    c_in, c_out_g = W.shape[:2]
    ksize = W.shape[2:]
    out = _onednn_conv.convolve_transpose(x, W, dims, params)
    if out is not None:
        return out
    out = direct_conv.conv2d_transpose(x, W, dims, **params.kwargs())
    if out is not None:
        return out
    groups = params.groups
    W = W.reshape(groups, c_in // groups, math.prod(W.shape[1:])).transpose(0, 2, 1)
    out = xp.empty(x.shape[:1] + (groups * c_out_g,) + tuple(dims), x.dtype)
    image_bytes = _column_bytes(groups * c_out_g, ksize, x.shape[2:], x.dtype)
    for s in batch_chunks(x, image_bytes):
        chunk = x[s]
        shape = (groups * c_out_g,) + ksize + chunk.shape[:1] + x.shape[2:]
        # one expression: the chunk's columns are freed before the next's
        out[s] = params.col2im(
            xp.matmul(W, _channel_major(chunk, groups)).reshape(shape), dims
        )
    return out


def convolve_grad_weight(x, gy, ksize, params):
    """Gradient of :func:`convolve` with respect to its filters.

    Args:
        x (numpy.ndarray or cupy.ndarray): Input of the convolution.
        gy (numpy.ndarray or cupy.ndarray): Gradient of its output.
        ksize (tuple of int): Filter lengths.
        params (ConvParams): Convolution parameters.

    Returns:
        numpy.ndarray or cupy.ndarray: Array of shape
        ``(c_O, c_I / groups, k_1, ..., k_N)`` (dtype of the product).

    """
    xp = backend.get_array_module(x, gy)
    out = _onednn_conv.convolve_grad_weight(x, gy, ksize, params)
    if out is not None:
        return out
    out = direct_conv.conv2d_grad_weight(
        x, gy, ksize, cache=params._direct_cache, **params.kwargs()
    )
    if out is not None:
        return out
    groups = params.groups
    gW = None
    image_bytes = _column_bytes(x.shape[1], ksize, gy.shape[2:], x.dtype)
    for s in batch_chunks(x, image_bytes):
        # the columns again, chunk by chunk (none were kept); computed
        # transposed, as col @ gy^T: OpenBLAS runs this orientation (a long
        # shared axis, few output columns) about twice as fast
        part = xp.matmul(
            params.grouped_columns(x[s], ksize),
            _channel_major(gy[s], groups).transpose(0, 2, 1),
        )
        gW = part if gW is None else xp.add(gW, part, out=gW)
    gW = gW.transpose(0, 2, 1)
    # (no -1: with no output channels the input channels are not implied)
    return gW.reshape((gy.shape[1], x.shape[1] // groups) + tuple(ksize))
