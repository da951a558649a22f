"""Base class of the N-d pooling nodes and helpers for indexed windows.

A max pooling picks one element of each window; its ``indexes`` array (one
entry per output element) holds the position of that element in the
flattened ``prod(ksize)`` window. :func:`scatter_windows` puts values back
at those positions and :func:`gather_windows` reads them; each is the
transpose of the other.
"""

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.connection import _conv_args
from chainerlite.functions.pooling import _taps
from chainerlite.utils import _windows
from chainerlite.utils import type_check


class PoolingND(function_node.FunctionNode):
    """Base class of pooling over windows of N-d images.

    Args:
        ndim (int): Number of spatial axes.
        ksize (int or tuple of ints): Window size.
        stride (int or tuple of ints or None): Stride; ``None`` means
            ``ksize``.
        pad (int or tuple of ints): Padding.
        cover_all (bool): See
            :func:`~chainerlite.functions.convolution_nd`.

    Raises:
        ValueError: If ``ndim`` is below 1, if ``ksize`` or ``stride`` is
            not a positive int (or ``ndim`` of them), or if ``pad`` is not
            a non-negative one; the message
            names the public function, the ``function_name`` attribute of
            each subclass.

    """

    # Whether an empty input is refused (Chainer 7.8.1's N-d max and
    # average pooling refuse one; its other pooling functions compute).
    refuses_empty = False
    # Chainer's flag of the pooling nodes that can also return the position
    # of each selected element (max pooling sets it)
    return_indices = False

    def __init__(self, ndim, ksize, stride=None, pad=0, cover_all=True):
        if stride is None:
            stride = ksize
        where = self.function_name
        if ndim < 1:
            # Chainer 7.8.1's type for it
            raise ValueError(
                '{}: pooling needs at least one spatial axis (an input of shape '
                '(n, c, ...) of 3 or more dimensions)'.format(where)
            )
        self.ndim = ndim
        self.ksize = _conv_args.int_tuple(ksize, ndim, 'ksize', where)
        self.stride = _conv_args.int_tuple(stride, ndim, 'stride', where)
        self.pad = _conv_args.int_tuple(pad, ndim, 'pad', where, minimum=0)
        self.cover_all = cover_all

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        (x_type,) = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim == self.ndim + 2)
        if self.refuses_empty:
            type_check.expect(x_type.size > 0)

    def out_sizes(self, dims):
        """Output lengths of these windows on images of lengths ``dims``.

        Raises:
            AssertionError: If one is not positive (Chainer's type), before
                any work is done: a window far larger than the image would
                otherwise be run over tap by tap.

        """
        outs = _windows.out_sizes(
            dims, self.ksize, self.stride, self.pad, self.cover_all
        )
        if min(outs) <= 0:
            raise AssertionError(
                '{}: output sizes should be positive, but ksize {}, stride {} '
                'and pad {} give {} on an input of {}'.format(
                    self.function_name,
                    self.ksize,
                    self.stride,
                    self.pad,
                    outs,
                    tuple(dims),
                )
            )
        return outs

    def window_params(self):
        """Returns the keyword arguments of a node with the same windows
        (``ndim`` too)."""
        return {
            'ndim': self.ndim,
            'ksize': self.ksize,
            'stride': self.stride,
            'pad': self.pad,
            'cover_all': self.cover_all,
        }

    def reaching_taps(self, dims, outs):
        """The taps of these windows that reach images of lengths ``dims``
        (see :func:`._taps.reaching_taps`)."""
        return _taps.reaching_taps(dims, outs, self.ksize, self.stride, self.pad)

    def im2col(self, x):
        """Column array of ``x`` for these windows."""
        return _windows.im2col(
            x, self.ksize, self.stride, self.pad, cover_all=self.cover_all
        )

    def col2im(self, col, dims):
        """Images of lengths ``dims`` summed from a column array."""
        return _windows.col2im(col, self.stride, self.pad, dims)

    def compiled(self, x):
        """Whether the compiled 2-D kernels of ``chainerlite._core`` take
        ``x`` (a float32 or float64 NumPy array of 2-D images)."""
        return (
            self.ndim == 2
            and isinstance(x, numpy.ndarray)
            and x.dtype in (numpy.float32, numpy.float64)
        )

    def window_axes(self):
        """Axes of the window taps in a column array."""
        return tuple(range(2, self.ndim + 2))


class _PoolingND(PoolingND):
    """Chainer's name and constructor of the base of the N-d pooling nodes,
    for classes written against it: ``return_indices`` is kept."""

    function_name = 'pooling_nd'

    def __init__(
        self, ndim, ksize, stride=None, pad=0, cover_all=True, return_indices=False
    ):
        super().__init__(ndim, ksize, stride, pad, cover_all)
        self.return_indices = return_indices


def scatter_windows(x, indexes, pooling, dims):
    """Puts each element of ``x`` at its indexed place in its window.

    Args:
        x (numpy.ndarray or cupy.ndarray): Values of shape
            ``(n, c, out_1, ..., out_N)``.
        indexes (numpy.ndarray or cupy.ndarray): Integer positions in the
            flattened windows, of the shape of ``x``.
        pooling (PoolingND): Node whose window parameters are used.
        dims (tuple of int): Lengths of the images the windows lie on.

    Returns:
        numpy.ndarray or cupy.ndarray: Images of shape
        ``(n, c, d_1, ..., d_N)``; values of overlapping windows are summed
        (in the C order of the taps; a value placed in the padding is
        dropped).

    """
    xp = backend.get_array_module(x)
    img = xp.zeros(x.shape[:2] + tuple(dims), dtype=x.dtype)
    zero = xp.zeros((), dtype=x.dtype)
    for k, out, inp in pooling.reaching_taps(dims, x.shape[2:]):
        img[inp] += xp.where(indexes[out] == k, x[out], zero)
    return img


def gather_windows(x, indexes, pooling):
    """Reads the indexed element of each window of ``x``.

    Args:
        x (numpy.ndarray or cupy.ndarray): Images of shape
            ``(n, c, d_1, ..., d_N)``.
        indexes (numpy.ndarray or cupy.ndarray): Integer positions in the
            flattened windows, of the output shape.
        pooling (PoolingND): Node whose window parameters are used.

    Returns:
        numpy.ndarray or cupy.ndarray: Array of the shape of ``indexes``
        (zero where the position lies in the padding).

    """
    xp = backend.get_array_module(x)
    y = xp.zeros(indexes.shape, dtype=x.dtype)
    for k, out, inp in pooling.reaching_taps(x.shape[2:], indexes.shape[2:]):
        xp.copyto(y[out], x[inp], where=indexes[out] == k)
    return y
