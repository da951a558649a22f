"""Windows of N-d convolutions: output sizes, ``im2col`` and ``col2im``.

The public faces are :mod:`chainerlite.utils.conv` (2-D) and
:mod:`chainerlite.utils.conv_nd` (N-d); the functions and poolings use the
helpers here directly.

A *column* array of images of shape ``(n, c, d_1, ..., d_N)`` has the
shape ``(n, c, k_1, ..., k_N, out_1, ..., out_N)``: at
``col[:, :, j_1, ..., j_N, y_1, ..., y_N]`` it holds the pixel that filter
tap ``(j_1, ..., j_N)`` sees when the filter sits at output position
``(y_1, ..., y_N)``, zero (or ``pval``) where the tap falls in the padding.

The functions work on NumPy and CuPy arrays alike, so the ``_cpu`` and
``_gpu`` names of Chainer are the same code; 2-D NumPy images of a floating
dtype go through the compiled kernels of ``chainerlite._kernels.conv``, which give
the same results.
"""

import itertools

import numpy

from chainerlite._kernels import conv as conv_kernels
from chainerlite import backend
from chainerlite.utils import conv_nd_kernel

_COMPILED_DTYPES = (numpy.float16, numpy.float32, numpy.float64)


def get_conv_outsize(size, k, s, p, cover_all=False, d=1):
    """Output length of a convolution along one axis.

    Args:
        size (int): Input length.
        k (int): Filter length.
        s (int): Stride.
        p (int): Padding on each side.
        cover_all (bool): Whether the last window may run past the padded
            input so that every input element is covered.
        d (int): Dilation.

    Returns:
        int: The output length (may be non-positive for a too small input).

    """
    dk = k + (k - 1) * (d - 1)
    if cover_all:
        return (size + p * 2 - dk + s - 1) // s + 1
    return (size + p * 2 - dk) // s + 1


def get_deconv_outsize(size, k, s, p, cover_all=False, d=1):
    """Output length of a transposed convolution along one axis.

    It is the input length of the convolution that maps an input of this
    length to ``size`` with the same parameters.

    Args:
        size (int): Input length.
        k (int): Filter length.
        s (int): Stride.
        p (int): Padding on each side.
        cover_all (bool): As in :func:`get_conv_outsize`.
        d (int): Dilation.

    Returns:
        int: The output length.

    """
    dk = (k - 1) * d + 1
    if cover_all:
        return s * (size - 1) + dk - s + 1 - 2 * p
    return s * (size - 1) + dk - 2 * p


def as_tuple(x, n):
    """Returns ``x`` as a tuple of length ``n``.

    Args:
        x (int or sequence): A scalar, repeated ``n`` times, or a sequence.
        n (int): The length.

    Returns:
        tuple: The tuple.

    Raises:
        AssertionError: If ``x`` is a sequence whose length is not ``n``.

    """
    if hasattr(x, '__getitem__'):
        assert len(x) == n, 'expected {} values, got {!r}'.format(n, x)
        return tuple(x)
    return (x,) * n


def out_sizes(dims, ksize, stride, pad, cover_all=False, dilate=1):
    """Output lengths of a convolution along each axis.

    Args:
        dims (tuple of int): Input lengths.
        ksize, stride, pad (tuple of int): Filter lengths, strides and
            paddings.
        cover_all (bool or tuple of bool): See
            :func:`get_conv_outsize`.
        dilate (int or tuple of int): Dilations.

    Returns:
        tuple of int: The output lengths.

    """
    ndim = len(dims)
    return tuple(
        get_conv_outsize(*args)
        for args in zip(
            dims, ksize, stride, pad, as_tuple(cover_all, ndim), as_tuple(dilate, ndim)
        )
    )


def tap_slices(ksize, stride, dilate, outs):
    """Yields ``(tap, slices)`` for each filter tap in C order.

    ``slices`` index, in the padded images, the pixels that the tap
    ``tap`` (a tuple of indices into the filter) sees at every output
    position.
    """
    for tap in itertools.product(*[range(k) for k in ksize]):
        yield (
            tap,
            tuple(
                slice(j * d, j * d + s * o, s)
                for j, s, d, o in zip(tap, stride, dilate, outs)
            ),
        )


def window_views(img, ksize, stride, pad, pval=0, cover_all=False, dilate=1, outs=None):
    """Views of the padded images, one per filter tap.

    Args:
        img (numpy.ndarray or cupy.ndarray): Images of shape
            ``(n, c, d_1, ..., d_N)``.
        ksize, stride, pad (tuple of int): Filter lengths, strides and
            paddings.
        pval (float): Value of the padded pixels.
        cover_all (bool or tuple of bool): See
            :func:`get_conv_outsize`.
        dilate (int or tuple of int): Dilations.
        outs (tuple of int): Output lengths; ``None`` computes them by
            :func:`out_sizes`.

    Returns:
        list: ``prod(ksize)`` arrays of shape ``(n, c, out_1, ..., out_N)``
        in C order of the taps: the pixels that each tap sees at every
        output position (views of one padded copy of ``img``).

    """
    xp = backend.get_array_module(img)
    dims = img.shape[2:]
    dilate = as_tuple(dilate, len(dims))
    if outs is None:
        outs = out_sizes(dims, ksize, stride, pad, cover_all, dilate)
    # Padded by ``pad`` before, and after by what the last window needs
    # (cover_all lets it run past the padding); not copied when nothing is.
    after = tuple(
        max(0, (o - 1) * s + (k - 1) * d + 1 - size - p)
        for o, s, k, d, size, p in zip(outs, stride, ksize, dilate, dims, pad)
    )
    if any(pad) or any(after):
        img = xp.pad(
            img,
            ((0, 0), (0, 0)) + tuple(zip(pad, after)),
            mode='constant',
            constant_values=(pval,),
        )
    return tap_views(img, ksize, stride, dilate, outs)


def tap_views(padded, ksize, stride, dilate, outs):
    """The per-tap views of :func:`window_views` on already padded images
    (writing into a view writes into ``padded``)."""
    return [
        padded[(Ellipsis,) + slices]
        for _, slices in tap_slices(ksize, stride, dilate, outs)
    ]


def im2col(
    img,
    ksize,
    stride,
    pad,
    pval=0,
    cover_all=False,
    dilate=1,
    channel_major=False,
    outs=None,
):
    """Gathers the windows of a batch of images into a column array.

    Args:
        img (numpy.ndarray or cupy.ndarray): Images of shape
            ``(n, c, d_1, ..., d_N)``.
        ksize, stride, pad (tuple of int): Filter lengths, strides and
            paddings.
        pval (float): Value of the padded pixels.
        cover_all (bool or tuple of bool): See
            :func:`get_conv_outsize`.
        dilate (int or tuple of int): Dilations.
        channel_major (bool): Lay the columns out as
            ``(c, k_1, ..., k_N, n, out_1, ..., out_N)``, which is a plain
            ``(c * prod(ksize), n * prod(outs))`` matrix for the products
            of a convolution.
        outs (tuple of int): Output lengths, as in :func:`window_views`.

    Returns:
        numpy.ndarray or cupy.ndarray: Column array of shape
        ``(n, c, k_1, ..., k_N, out_1, ..., out_N)`` (see
        ``channel_major``) and the dtype of ``img``.

    """
    xp = backend.get_array_module(img)
    n, c = img.shape[:2]
    ksize = tuple(ksize)
    if xp is not numpy and not channel_major and pval == 0:
        col = _im2col_cuda(img, ksize, stride, pad, cover_all, dilate, outs)
        if col is not None:
            return col
    if _compiled(img, ksize, dilate):
        if outs is None:
            outs = out_sizes(img.shape[2:], ksize, stride, pad, cover_all, dilate)
        if min(outs) > 0:
            return _im2col_2d(
                img, ksize, stride, pad, pval, dilate, channel_major, outs
            )
    views = window_views(img, ksize, stride, pad, pval, cover_all, dilate, outs)
    outs = views[0].shape[2:]
    if channel_major:
        col = xp.empty((c, len(views), n) + outs, dtype=img.dtype)
        for k, view in enumerate(views):
            col[:, k] = view.swapaxes(0, 1)
        return col.reshape((c,) + ksize + (n,) + outs)
    col = xp.empty((n, c, len(views)) + outs, dtype=img.dtype)
    for k, view in enumerate(views):
        col[:, :, k] = view
    return col.reshape((n, c) + ksize + outs)


def col2im(col, stride, pad, dims, dilate=1, channel_major=False):
    """Sums a column array back into images (the transpose of im2col).

    Args:
        col (numpy.ndarray or cupy.ndarray): Column array of shape
            ``(n, c, k_1, ..., k_N, out_1, ..., out_N)``, or
            ``(c, k_1, ..., k_N, n, out_1, ..., out_N)`` with
            ``channel_major``.
        stride, pad (tuple of int): Strides and paddings.
        dims (tuple of int): Lengths of the images.
        dilate (int or tuple of int): Dilations.
        channel_major (bool): The layout of ``col``, as in :func:`im2col`.

    Returns:
        numpy.ndarray or cupy.ndarray: Images of shape
        ``(n, c, d_1, ..., d_N)``.

    """
    xp = backend.get_array_module(col)
    ndim = len(dims)
    if xp is not numpy and not channel_major:
        return _col2im_cuda(col, stride, pad, dims, dilate)
    if _compiled(col, dims, dilate) and col.dtype != numpy.float16:
        return _col2im_2d(col, stride, pad, dims, dilate, channel_major)
    # Summed with the channels and the batch as the innermost axes, so that
    # each tap adds long contiguous runs rather than image rows.
    if channel_major:
        c, n = col.shape[0], col.shape[ndim + 1]
        ksize, outs = col.shape[1 : ndim + 1], col.shape[ndim + 2 :]
        order = tuple(range(1, ndim + 1)) + tuple(range(ndim + 2, 2 * ndim + 2))
        col = col.transpose(order + (0, ndim + 1))
    else:
        n, c = col.shape[:2]
        ksize, outs = col.shape[2 : ndim + 2], col.shape[ndim + 2 :]
        col = col.transpose(tuple(range(2, 2 * ndim + 2)) + (1, 0))
    col = xp.ascontiguousarray(col)
    img = xp.zeros(
        tuple(d + 2 * p + s - 1 for d, p, s in zip(dims, pad, stride)) + (c, n),
        dtype=col.dtype,
    )
    for tap, slices in tap_slices(ksize, stride, as_tuple(dilate, ndim), outs):
        img[slices] += col[tap]
    img = img[tuple(slice(p, p + d) for p, d in zip(pad, dims))]
    return img.transpose((ndim + 1, ndim) + tuple(range(ndim)))


def _im2col_cuda(img, ksize, stride, pad, cover_all, dilate, outs):
    # CuPy images: the N-d im2col kernel of conv_nd_kernel (None when an
    # output length is not positive: the general path reports it)
    ndim = len(ksize)
    dims = img.shape[2:]
    dilate = as_tuple(dilate, ndim)
    if outs is None:
        outs = out_sizes(dims, ksize, stride, pad, cover_all, dilate)
    if min(outs) <= 0:
        return None
    xp = backend.get_array_module(img)
    col = xp.empty(img.shape[:2] + ksize + tuple(outs), dtype=img.dtype)
    conv_nd_kernel.im2col_kernel(ndim)(
        xp.ascontiguousarray(img),
        *(tuple(dims) + tuple(outs) + ksize + tuple(stride) + tuple(pad) + dilate),
        col,
    )
    return col


def _col2im_cuda(col, stride, pad, dims, dilate):
    # CuPy columns: the N-d col2im kernel of conv_nd_kernel
    ndim = len(dims)
    ksize, outs = col.shape[2 : ndim + 2], col.shape[ndim + 2 :]
    xp = backend.get_array_module(col)
    img = xp.empty(col.shape[:2] + tuple(dims), dtype=col.dtype)
    conv_nd_kernel.col2im_kernel(ndim)(
        xp.ascontiguousarray(col),
        *(
            tuple(dims)
            + tuple(outs)
            + tuple(ksize)
            + tuple(stride)
            + tuple(pad)
            + as_tuple(dilate, ndim)
        ),
        img,
    )
    return img


def _compiled(array, ksize, dilate):
    # whether the compiled kernels take these images (or their columns);
    # they refuse a zero dilation (every tap on one pixel)
    return (
        len(ksize) == 2
        and isinstance(array, numpy.ndarray)
        and array.dtype in _COMPILED_DTYPES
        and min(as_tuple(dilate, 2)) > 0
    )


def _im2col_2d(img, ksize, stride, pad, pval, dilate, channel_major, outs):
    n, c = img.shape[:2]
    dtype = img.dtype
    dilate = as_tuple(dilate, 2)
    pval = numpy.asarray(pval, dtype)
    if channel_major:
        col = numpy.empty((c,) + ksize + (n,) + outs, dtype)
        # the kernel sees both layouts as (n, c, kh, kw, out_h, out_w)
        view = col.transpose(3, 0, 1, 2, 4, 5)
        # padded once, then each tap's rows are plain copies
        img = _padded_2d(img, ksize, stride, pad, pval, dilate, outs)
    else:
        col = view = numpy.empty((n, c) + ksize + outs, dtype)
        img = numpy.ascontiguousarray(img)
    if dtype == numpy.float16:  # copied as bits
        img, view, pval = (a.view(numpy.uint16) for a in (img, view, pval))
    if channel_major:
        conv_kernels.im2col_padded_2d(img, view, *stride, *dilate)
    else:
        conv_kernels.im2col_2d(img, view, *stride, *pad, *dilate, pval[()])
    return col


def _padded_2d(img, ksize, stride, pad, pval, dilate, outs):
    # C-contiguous images padded with pval to the extent the windows reach
    # (cover_all's may pass the padding; rows and columns no window
    # reaches are left out)
    extent = [
        (o - 1) * s + (k - 1) * d + 1 for o, s, k, d in zip(outs, stride, ksize, dilate)
    ]
    padded = numpy.full(img.shape[:2] + tuple(extent), pval, img.dtype)
    (hp, wp), (py, px), (h, w) = extent, pad, img.shape[2:]
    rows, cols = max(0, min(h, hp - py)), max(0, min(w, wp - px))
    padded[:, :, py : py + rows, px : px + cols] = img[:, :, :rows, :cols]
    return padded


def _col2im_2d(col, stride, pad, dims, dilate, channel_major):
    if channel_major:
        col = col.transpose(3, 0, 1, 2, 4, 5)
    img = numpy.zeros(col.shape[:2] + tuple(dims), col.dtype)
    conv_kernels.col2im_2d(col, img, *stride, *pad, *as_tuple(dilate, 2))
    return img
