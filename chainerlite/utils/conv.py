"""2-D ``im2col`` / ``col2im`` and output sizes (``chainer.utils.conv``).

The column layout is that of :mod:`chainerlite.utils.conv_nd` with two
spatial axes: ``col[:, :, ky, kx, y, x]`` is the pixel that the filter tap
``(ky, kx)`` sees at output position ``(y, x)``. The functions work on
NumPy and CuPy arrays alike, so the ``_cpu`` and ``_gpu`` variants are the
same code.
"""

from chainerlite.utils import _windows
from chainerlite.utils._windows import get_conv_outsize  # NOQA
from chainerlite.utils._windows import get_deconv_outsize  # NOQA


def im2col_cpu(
    img,
    kh,
    kw,
    sy,
    sx,
    ph,
    pw,
    pval=0,
    cover_all=False,
    dy=1,
    dx=1,
    out_h=None,
    out_w=None,
):
    """Gathers the windows of a batch of images into a column array.

    Args:
        img (numpy.ndarray): Images of shape ``(n, c, h, w)``.
        kh, kw (int): Filter height and width.
        sy, sx (int): Strides.
        ph, pw (int): Paddings.
        pval (float): Value of the padded pixels.
        cover_all (bool): See :func:`get_conv_outsize`.
        dy, dx (int): Dilations.
        out_h, out_w (int): Output height and width; ``None`` computes them
            by :func:`get_conv_outsize`.

    Returns:
        numpy.ndarray: Column array of shape ``(n, c, kh, kw, out_h, out_w)``.

    Raises:
        AssertionError: If the output height or width is not positive (as
            Chainer asserts).

    """
    h, w = img.shape[2:]
    if out_h is None:
        out_h = get_conv_outsize(h, kh, sy, ph, cover_all, dy)
    if out_h <= 0:
        raise AssertionError('Height in the output should be positive.')
    if out_w is None:
        out_w = get_conv_outsize(w, kw, sx, pw, cover_all, dx)
    if out_w <= 0:
        raise AssertionError('Width in the output should be positive.')
    return _windows.im2col(
        img,
        (kh, kw),
        (sy, sx),
        (ph, pw),
        pval,
        cover_all,
        (dy, dx),
        outs=(out_h, out_w),
    )


def im2col_gpu(
    img, kh, kw, sy, sx, ph, pw, cover_all=False, dy=1, dx=1, out_h=None, out_w=None
):
    """:func:`im2col_cpu` on CuPy arrays (padded with zeros)."""
    return im2col_cpu(img, kh, kw, sy, sx, ph, pw, 0, cover_all, dy, dx, out_h, out_w)


def im2col(
    img, kh, kw, sy, sx, ph, pw, cover_all=False, dy=1, dx=1, out_h=None, out_w=None
):
    """:func:`im2col_cpu` on NumPy or CuPy arrays, padded with zeros."""
    return im2col_cpu(img, kh, kw, sy, sx, ph, pw, 0, cover_all, dy, dx, out_h, out_w)


def col2im_cpu(col, sy, sx, ph, pw, h, w, dy=1, dx=1):
    """Sums a column array back into images (the transpose of im2col).

    Args:
        col (numpy.ndarray): Column array of shape
            ``(n, c, kh, kw, out_h, out_w)``.
        sy, sx (int): Strides.
        ph, pw (int): Paddings.
        h, w (int): Height and width of the images.
        dy, dx (int): Dilations.

    Returns:
        numpy.ndarray: Images of shape ``(n, c, h, w)``.

    """
    return _windows.col2im(col, (sy, sx), (ph, pw), (h, w), (dy, dx))


def col2im_gpu(col, sy, sx, ph, pw, h, w, dy=1, dx=1):
    """:func:`col2im_cpu` on CuPy arrays."""
    return col2im_cpu(col, sy, sx, ph, pw, h, w, dy, dx)


def col2im(col, sy, sx, ph, pw, h, w, dy=1, dx=1):
    """:func:`col2im_cpu` on NumPy or CuPy arrays."""
    return col2im_cpu(col, sy, sx, ph, pw, h, w, dy, dx)
