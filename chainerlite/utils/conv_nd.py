"""N-dimensional ``im2col`` / ``col2im`` (Chainer's ``chainer.utils.conv_nd``).

The functions work on NumPy and CuPy arrays alike; on CuPy arrays they run
the kernels of :mod:`chainerlite.utils.conv_nd_kernel`.
"""

from chainerlite.utils._windows import as_tuple  # NOQA
from chainerlite.utils._windows import col2im
from chainerlite.utils._windows import get_conv_outsize  # NOQA
from chainerlite.utils._windows import get_deconv_outsize  # NOQA
from chainerlite.utils._windows import im2col


def _check_ranks(ndim, **params):
    for name, value in params.items():
        assert len(value) == ndim, (
            '{} must have {} values for {}-d images, but {!r} is given'.format(
                name, ndim, ndim, value
            )
        )


def im2col_nd_cpu(img, ksize, stride, pad, pval=0, cover_all=False, dilate=1):
    """Column array of N-d images (see the module docstring).

    Args:
        img (numpy.ndarray): Images of shape ``(n, c, d_1, ..., d_N)``.
        ksize, stride, pad (tuple of int): Filter lengths, strides and
            paddings, ``N`` of each.
        pval (float): Value of the padded pixels.
        cover_all (bool): See
            :func:`~chainerlite.utils.conv.get_conv_outsize`.
        dilate (int or tuple of int): Dilations.

    Returns:
        numpy.ndarray: Array of shape
        ``(n, c, k_1, ..., k_N, out_1, ..., out_N)``.

    Raises:
        AssertionError: If ``ksize``, ``stride`` or ``pad`` does not have
            ``N`` values, or an output length is not positive.

    """
    ndim = img.ndim - 2
    _check_ranks(ndim, ksize=ksize, stride=stride, pad=pad)
    dilate = as_tuple(dilate, ndim)
    outs = [
        get_conv_outsize(d, k, s, p, cover_all, di)
        for d, k, s, p, di in zip(img.shape[2:], ksize, stride, pad, dilate)
    ]
    if min(outs, default=1) <= 0:
        raise AssertionError('Output sizes should be positive.')
    return im2col(img, ksize, stride, pad, pval, cover_all, dilate)


def im2col_nd_gpu(img, ksize, stride, pad, cover_all=False, dilate=1):
    """:func:`im2col_nd_cpu` on CuPy arrays (padded with zeros)."""
    return im2col_nd_cpu(img, ksize, stride, pad, cover_all=cover_all, dilate=dilate)


def im2col_nd(img, ksize, stride, pad, cover_all=False, dilate=1):
    """:func:`im2col_nd_cpu` on NumPy or CuPy arrays (padded with zeros)."""
    return im2col_nd_cpu(img, ksize, stride, pad, cover_all=cover_all, dilate=dilate)


def col2im_nd_cpu(col, stride, pad, dims, dilate=1):
    """Sums a column array back into N-d images (the transpose of im2col).

    Args:
        col (numpy.ndarray): Array of shape
            ``(n, c, k_1, ..., k_N, out_1, ..., out_N)``.
        stride, pad (tuple of int): Strides and paddings, ``N`` of each.
        dims (tuple of int): Lengths ``(d_1, ..., d_N)`` of the images.
        dilate (int or tuple of int): Dilations.

    Returns:
        numpy.ndarray: Images of shape ``(n, c, d_1, ..., d_N)``.

    Raises:
        AssertionError: If ``stride``, ``pad`` or ``dims`` does not have
            ``N`` values.

    """
    ndim = (col.ndim - 2) // 2
    _check_ranks(ndim, stride=stride, pad=pad, dims=dims)
    return col2im(col, stride, pad, tuple(dims), as_tuple(dilate, ndim))


def col2im_nd_gpu(col, stride, pad, dims, dilate=1):
    """:func:`col2im_nd_cpu` on CuPy arrays."""
    return col2im_nd_cpu(col, stride, pad, dims, dilate)


def col2im_nd(col, stride, pad, dims, dilate=1):
    """:func:`col2im_nd_cpu` on NumPy or CuPy arrays."""
    return col2im_nd_cpu(col, stride, pad, dims, dilate)
