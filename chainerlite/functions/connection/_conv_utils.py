"""Array helpers of the 2-D convolution and pooling functions.

Output sizes, the ``im2col`` / ``col2im`` pair of transforms, and the three
products a convolution is made of (the convolution itself, its transpose
and the gradient of its filter). They work on raw NumPy or CuPy arrays.

A *column* array ``col`` of shape ``(n, c, kh, kw, out_h, out_w)`` holds, at
``col[:, :, j, i, y, x]``, the input pixel that the filter tap ``(j, i)``
sees when the filter sits at output position ``(y, x)``. The convolutions
use the channel-major layout ``(c, kh, kw, n, out_h, out_w)`` instead,
which is already the ``(c * kh * kw, n * out_h * out_w)`` matrix of their
products, so no large transposed copy is made.
"""

from chainerlite import backend
from chainerlite.functions.connection import _conv_args


def pair(x):
    """Returns ``x`` as a pair: ``(x, x)`` for a scalar, ``x`` otherwise."""
    if hasattr(x, '__getitem__'):
        return x
    return x, x


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


def _windows(kh, kw, sy, sx, dy, dx, out_h, out_w):
    # For each filter tap (j, i): the rows and columns of the padded image
    # that it sees over all output positions.
    for j in range(kh):
        for i in range(kw):
            yield j, i, (slice(j * dy, j * dy + sy * out_h, sy),
                         slice(i * dx, i * dx + sx * out_w, sx))


def window_views(img, kh, kw, sy, sx, ph, pw, pval=0, cover_all=False, dy=1,
                 dx=1):
    """Views of the padded images, one per filter tap.

    Args:
        img (numpy.ndarray or cupy.ndarray): Images of shape
            ``(n, c, h, w)``.
        kh, kw, sy, sx, ph, pw, pval, cover_all, dy, dx: As in
            :func:`im2col`.

    Returns:
        list: ``kh * kw`` arrays of shape ``(n, c, out_h, out_w)``, tap
        ``(j, i)`` at index ``j * kw + i``: the pixels that the tap sees
        at every output position (views of one padded copy of ``img``).

    """
    xp = backend.get_array_module(img)
    _, _, h, w = img.shape
    cover_y, cover_x = pair(cover_all)
    out_h = get_conv_outsize(h, kh, sy, ph, cover_y, dy)
    out_w = get_conv_outsize(w, kw, sx, pw, cover_x, dx)
    # Padded by ph / pw before, and after by what the last window needs
    # (cover_all lets it run past the padding); not copied when nothing is.
    after_h = max(0, (out_h - 1) * sy + (kh - 1) * dy + 1 - h - ph)
    after_w = max(0, (out_w - 1) * sx + (kw - 1) * dx + 1 - w - pw)
    if ph or pw or after_h or after_w:
        img = xp.pad(img, ((0, 0), (0, 0), (ph, after_h), (pw, after_w)),
                     mode='constant', constant_values=(pval,))
    return tap_views(img, kh, kw, sy, sx, dy, dx, out_h, out_w)


def tap_views(padded, kh, kw, sy, sx, dy, dx, out_h, out_w):
    """The per-tap views of :func:`window_views` on already padded images
    (writing into a view writes into ``padded``)."""
    return [padded[:, :, rows, cols] for _, _, (rows, cols)
            in _windows(kh, kw, sy, sx, dy, dx, out_h, out_w)]


def im2col(img, kh, kw, sy, sx, ph, pw, pval=0, cover_all=False, dy=1, dx=1,
           channel_major=False):
    """Gathers the windows of a batch of images into a column array.

    Args:
        img (numpy.ndarray or cupy.ndarray): Images of shape
            ``(n, c, h, w)``.
        kh, kw (int): Filter height and width.
        sy, sx (int): Strides.
        ph, pw (int): Paddings.
        pval (float): Value of the padded pixels.
        cover_all (bool or pair of bools): See :func:`get_conv_outsize`; a
            pair gives the value for each axis.
        dy, dx (int): Dilations.
        channel_major (bool): Lay the columns out as
            ``(c, kh, kw, n, out_h, out_w)``, which is a plain
            ``(c * kh * kw, n * out_h * out_w)`` matrix for the products of
            a convolution.

    Returns:
        numpy.ndarray or cupy.ndarray: Column array of shape
        ``(n, c, kh, kw, out_h, out_w)`` (see ``channel_major``) and the
        dtype of ``img``.

    """
    xp = backend.get_array_module(img)
    n, c = img.shape[:2]
    views = window_views(img, kh, kw, sy, sx, ph, pw, pval, cover_all, dy, dx)
    out_h, out_w = views[0].shape[2:]
    if channel_major:
        col = xp.empty((c, kh * kw, n, out_h, out_w), dtype=img.dtype)
        for k, view in enumerate(views):
            col[:, k] = view.transpose(1, 0, 2, 3)
        return col.reshape(c, kh, kw, n, out_h, out_w)
    col = xp.empty((n, c, kh * kw, out_h, out_w), dtype=img.dtype)
    for k, view in enumerate(views):
        col[:, :, k] = view
    return col.reshape(n, c, kh, kw, out_h, out_w)


def col2im(col, sy, sx, ph, pw, h, w, dy=1, dx=1, channel_major=False):
    """Sums a column array back into images (the transpose of im2col).

    Args:
        col (numpy.ndarray or cupy.ndarray): Column array of shape
            ``(n, c, kh, kw, out_h, out_w)``, or
            ``(c, kh, kw, n, out_h, out_w)`` with ``channel_major``.
        sy, sx (int): Strides.
        ph, pw (int): Paddings.
        h, w (int): Height and width of the images.
        dy, dx (int): Dilations.
        channel_major (bool): The layout of ``col``, as in :func:`im2col`.

    Returns:
        numpy.ndarray or cupy.ndarray: Images of shape ``(n, c, h, w)``.

    """
    xp = backend.get_array_module(col)
    # Summed with the channels and the batch as the innermost axes, so that
    # each tap adds long contiguous runs rather than image rows.
    if channel_major:
        c, kh, kw, n, out_h, out_w = col.shape
        col = col.transpose(1, 2, 4, 5, 0, 3)
    else:
        n, c, kh, kw, out_h, out_w = col.shape
        col = col.transpose(2, 3, 4, 5, 1, 0)
    col = xp.ascontiguousarray(col)
    img = xp.zeros((h + 2 * ph + sy - 1, w + 2 * pw + sx - 1, c, n),
                   dtype=col.dtype)
    for j, i, (rows, cols) in _windows(kh, kw, sy, sx, dy, dx, out_h, out_w):
        img[rows, cols] += col[j, i]
    return img[ph:h + ph, pw:w + pw].transpose(3, 2, 0, 1)


class ConvParams:
    """Stride, padding, dilation and groups of a 2-D convolution.

    Args:
        stride (int or pair of ints): Strides ``(sy, sx)``.
        pad (int or pair of ints): Paddings ``(ph, pw)``.
        cover_all (bool or pair of bools): See :func:`get_conv_outsize`; a
            pair gives the value for each axis.
        dilate (int or pair of ints): Dilations ``(dy, dx)``.
        groups (int): Number of channel groups.
        where (str): The function that takes them, named in errors.

    Raises:
        ValueError: If ``stride``, ``dilate`` or ``groups`` is not positive,
            or ``pad`` is negative, or one is not an int (or a pair of them).

    """

    def __init__(self, stride, pad, cover_all, dilate, groups, where):
        self.sy, self.sx = _conv_args.int_pair(stride, 'stride', where)
        self.ph, self.pw = _conv_args.int_pair(pad, 'pad', where, minimum=0)
        self.cover_all = tuple(pair(cover_all))
        self.dy, self.dx = _conv_args.int_pair(dilate, 'dilate', where)
        self.groups = _conv_args.positive_int(groups, 'groups', where)

    def kwargs(self):
        """Keyword arguments of a convolution function, but ``cover_all``."""
        return {'stride': (self.sy, self.sx), 'pad': (self.ph, self.pw),
                'dilate': (self.dy, self.dx), 'groups': self.groups}

    def out_size(self, h, w, kh, kw):
        """Output height and width of the convolution of an ``h x w`` input.

        Raises:
            RuntimeError: If the height or the width is not positive.

        """
        cover_y, cover_x = self.cover_all
        out_h = get_conv_outsize(h, kh, self.sy, self.ph, cover_y, self.dy)
        if out_h <= 0:
            raise RuntimeError('Height in the output should be positive.')
        out_w = get_conv_outsize(w, kw, self.sx, self.pw, cover_x, self.dx)
        if out_w <= 0:
            raise RuntimeError('Width in the output should be positive.')
        return out_h, out_w

    def im2col(self, x, kh, kw):
        """Channel-major column array of ``x`` for a ``kh x kw`` filter."""
        return im2col(x, kh, kw, self.sy, self.sx, self.ph, self.pw,
                      cover_all=self.cover_all, dy=self.dy, dx=self.dx,
                      channel_major=True)

    def grouped_columns(self, x, kh, kw):
        """:meth:`im2col` as ``groups`` blocks of shape
        ``(c / groups * kh * kw, n * out_h * out_w)`` (a view, no copy)."""
        col = self.im2col(x, kh, kw)
        c, _, _, n, out_h, out_w = col.shape
        return col.reshape(self.groups, c // self.groups * kh * kw,
                           n * out_h * out_w)

    def col2im(self, col, h, w):
        """Images of size ``h x w`` summed from a channel-major column array."""
        return col2im(col, self.sy, self.sx, self.ph, self.pw, h, w,
                      dy=self.dy, dx=self.dx, channel_major=True)


def _channel_major(y, groups):
    # (n, G * c, h, w) -> (G, c, n * h * w); sizes are spelled out (no -1)
    # so that an empty batch reshapes too
    n, channels, h, w = y.shape
    return y.transpose(1, 0, 2, 3).reshape(
        groups, channels // groups, n * h * w)


def _batch_major(y, n, h, w, dtype):
    # (G, c, n * h * w) -> C-contiguous (n, G * c, h, w) of ``dtype``
    xp = backend.get_array_module(y)
    y = y.reshape(y.shape[0] * y.shape[1], n, h, w).transpose(1, 0, 2, 3)
    return xp.ascontiguousarray(y).astype(dtype, copy=False)


def convolve(x, W, params):
    """Convolution of ``x`` by ``W`` (a cross-correlation, no bias).

    Args:
        x (numpy.ndarray or cupy.ndarray): Input of shape ``(n, c_I, h, w)``.
        W (numpy.ndarray or cupy.ndarray): Filters of shape
            ``(c_O, c_I / groups, kh, kw)``.
        params (ConvParams): Convolution parameters.

    Returns:
        numpy.ndarray or cupy.ndarray: Output of shape
        ``(n, c_O, out_h, out_w)`` and the dtype of ``x``.

    """
    xp = backend.get_array_module(x, W)
    n = x.shape[0]
    c_out, _, kh, kw = W.shape
    out_h, out_w = params.out_size(x.shape[2], x.shape[3], kh, kw)
    groups = params.groups
    # (G * c_I * kh * kw, n * out_h * out_w) in G blocks: no copy needed
    col = params.grouped_columns(x, kh, kw)
    y = xp.matmul(W.reshape(groups, c_out // groups, -1), col)
    return _batch_major(y, n, out_h, out_w, x.dtype)


def convolve_transpose(x, W, h, w, params):
    """Transposed convolution of ``x`` by ``W`` (no bias).

    It is the gradient of :func:`convolve` with respect to its input.

    Args:
        x (numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, c_I, in_h, in_w)``.
        W (numpy.ndarray or cupy.ndarray): Filters of shape
            ``(c_I, c_O / groups, kh, kw)``.
        h, w (int): Output height and width.
        params (ConvParams): Convolution parameters.

    Returns:
        numpy.ndarray or cupy.ndarray: Output of shape ``(n, c_O, h, w)``
        and the dtype of ``x``.

    """
    xp = backend.get_array_module(x, W)
    n, _, in_h, in_w = x.shape
    c_in, c_out_g, kh, kw = W.shape
    groups = params.groups
    W = W.reshape(groups, c_in // groups, -1).transpose(0, 2, 1)
    col = xp.matmul(W, _channel_major(x, groups))
    col = col.reshape(groups * c_out_g, kh, kw, n, in_h, in_w)
    return xp.ascontiguousarray(params.col2im(col, h, w)).astype(
        x.dtype, copy=False)


def convolve_grad_weight(x, gy, kh, kw, params):
    """Gradient of :func:`convolve` with respect to its filters.

    Args:
        x (numpy.ndarray or cupy.ndarray): Input of the convolution.
        gy (numpy.ndarray or cupy.ndarray): Gradient of its output.
        kh, kw (int): Filter height and width.
        params (ConvParams): Convolution parameters.

    Returns:
        numpy.ndarray or cupy.ndarray: Array of shape
        ``(c_O, c_I / groups, kh, kw)`` (dtype of the product).

    """
    xp = backend.get_array_module(x, gy)
    groups = params.groups
    col = params.grouped_columns(x, kh, kw)
    gW = xp.matmul(_channel_major(gy, groups), col.transpose(0, 2, 1))
    return gW.reshape(gy.shape[1], -1, kh, kw)
