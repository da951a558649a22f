"""Array helpers of the 2-D convolution and pooling functions.

Output sizes, the ``im2col`` / ``col2im`` pair of transforms, and the three
products a convolution is made of (the convolution itself, its transpose
and the gradient of its filter). They work on raw NumPy or CuPy arrays.

A *column* array ``col`` of shape ``(n, c, kh, kw, out_h, out_w)`` holds, at
``col[:, :, j, i, y, x]``, the input pixel that the filter tap ``(j, i)``
sees when the filter sits at output position ``(y, x)``.
"""

from chainerlite import backend


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


def im2col(img, kh, kw, sy, sx, ph, pw, pval=0, cover_all=False, dy=1, dx=1):
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

    Returns:
        numpy.ndarray or cupy.ndarray: Column array of shape
        ``(n, c, kh, kw, out_h, out_w)`` and the dtype of ``img``.

    """
    xp = backend.get_array_module(img)
    n, c, h, w = img.shape
    cover_y, cover_x = pair(cover_all)
    out_h = get_conv_outsize(h, kh, sy, ph, cover_y, dy)
    out_w = get_conv_outsize(w, kw, sx, pw, cover_x, dx)
    # The extra stride - 1 rows and columns hold the windows that cover_all
    # lets run past the padded image.
    img = xp.pad(img, ((0, 0), (0, 0), (ph, ph + sy - 1), (pw, pw + sx - 1)),
                 mode='constant', constant_values=(pval,))
    col = xp.empty((n, c, kh, kw, out_h, out_w), dtype=img.dtype)
    for j in range(kh):
        y0 = j * dy
        for i in range(kw):
            x0 = i * dx
            col[:, :, j, i] = img[:, :, y0:y0 + sy * out_h:sy,
                                  x0:x0 + sx * out_w:sx]
    return col


def col2im(col, sy, sx, ph, pw, h, w, dy=1, dx=1):
    """Sums a column array back into images (the transpose of im2col).

    Args:
        col (numpy.ndarray or cupy.ndarray): Column array of shape
            ``(n, c, kh, kw, out_h, out_w)``.
        sy, sx (int): Strides.
        ph, pw (int): Paddings.
        h, w (int): Height and width of the images.
        dy, dx (int): Dilations.

    Returns:
        numpy.ndarray or cupy.ndarray: Images of shape ``(n, c, h, w)``.

    """
    xp = backend.get_array_module(col)
    n, c, kh, kw, out_h, out_w = col.shape
    img = xp.zeros((n, c, h + 2 * ph + sy - 1, w + 2 * pw + sx - 1),
                   dtype=col.dtype)
    for j in range(kh):
        y0 = j * dy
        for i in range(kw):
            x0 = i * dx
            img[:, :, y0:y0 + sy * out_h:sy, x0:x0 + sx * out_w:sx] += \
                col[:, :, j, i]
    return img[:, :, ph:h + ph, pw:w + pw]


class ConvParams:
    """Stride, padding, dilation and groups of a 2-D convolution.

    Args:
        stride (int or pair of ints): Strides ``(sy, sx)``.
        pad (int or pair of ints): Paddings ``(ph, pw)``.
        cover_all (bool or pair of bools): See :func:`get_conv_outsize`; a
            pair gives the value for each axis.
        dilate (int or pair of ints): Dilations ``(dy, dx)``.
        groups (int): Number of channel groups.

    """

    def __init__(self, stride, pad, cover_all, dilate, groups):
        self.sy, self.sx = pair(stride)
        self.ph, self.pw = pair(pad)
        self.cover_all = tuple(pair(cover_all))
        self.dy, self.dx = pair(dilate)
        self.groups = int(groups)

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
        """Column array of ``x`` for a ``kh x kw`` filter."""
        return im2col(x, kh, kw, self.sy, self.sx, self.ph, self.pw,
                      cover_all=self.cover_all, dy=self.dy, dx=self.dx)

    def col2im(self, col, h, w):
        """Images of size ``h x w`` summed from a column array."""
        return col2im(col, self.sy, self.sx, self.ph, self.pw, h, w,
                      dy=self.dy, dx=self.dx)


def _grouped_col(col, groups):
    # (n, G * c, kh, kw, oh, ow) -> (G, c * kh * kw, n * oh * ow)
    n, _, kh, kw, out_h, out_w = col.shape
    col = col.reshape(n, groups, -1, out_h * out_w)
    return col.transpose(1, 2, 0, 3).reshape(groups, -1, n * out_h * out_w)


def _grouped_image(y, groups):
    # (n, G * c, h, w) -> (G, c, n * h * w)
    n, _, h, w = y.shape
    y = y.reshape(n, groups, -1, h * w)
    return y.transpose(1, 2, 0, 3).reshape(groups, -1, n * h * w)


def _ungrouped_image(y, n, h, w):
    # (G, c, n * h * w) -> (n, G * c, h, w)
    groups, c, _ = y.shape
    y = y.reshape(groups, c, n, h * w).transpose(2, 0, 1, 3)
    return y.reshape(n, groups * c, h, w)


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
    col = _grouped_col(params.im2col(x, kh, kw), params.groups)
    W = W.reshape(params.groups, c_out // params.groups, -1)
    y = xp.matmul(W, col)
    return _ungrouped_image(y, n, out_h, out_w).astype(x.dtype, copy=False)


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
    col = xp.matmul(W, _grouped_image(x, groups))
    col = col.reshape(groups, c_out_g, kh, kw, n, in_h, in_w)
    col = col.transpose(4, 0, 1, 2, 3, 5, 6).reshape(
        n, groups * c_out_g, kh, kw, in_h, in_w)
    return params.col2im(col, h, w).astype(x.dtype, copy=False)


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
    col = _grouped_col(params.im2col(x, kh, kw), groups)
    gW = xp.matmul(_grouped_image(gy, groups), col.transpose(0, 2, 1))
    return gW.reshape(gy.shape[1], -1, kh, kw)
