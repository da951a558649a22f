"""Extraction of image patches into columns (im2col)."""

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.connection import _conv_args
from chainerlite.utils import type_check


def _outsize(size, k, s, p, cover_all, d):
    dk = k + (k - 1) * (d - 1)
    if cover_all:
        return (size + p * 2 - dk + s - 1) // s + 1
    return (size + p * 2 - dk) // s + 1


def _windows(params, out_h, out_w):
    # Yields (j, i, window) where window indexes, in the padded image, the
    # pixels that kernel tap (j, i) sees at every output position.
    (kh, kw), (sy, sx), _, (dy, dx) = params
    for j in range(kh):
        for i in range(kw):
            yield j, i, (Ellipsis,
                         slice(j * dy, j * dy + sy * out_h, sy),
                         slice(i * dx, i * dx + sx * out_w, sx))


def _padded_shape(shape, params):
    n, c, h, w = shape
    _, (sy, sx), (ph, pw), _ = params
    # sy - 1 extra rows (sx - 1 columns) at the end cover cover_all windows.
    return n, c, h + 2 * ph + sy - 1, w + 2 * pw + sx - 1


class Im2Col(function_node.FunctionNode):
    """Extraction of image patches into columns."""

    def __init__(self, ksize, stride, pad, cover_all, dilate):
        self.params = (_conv_args.int_pair(ksize, 'ksize', 'im2col'),
                       _conv_args.int_pair(stride, 'stride', 'im2col'),
                       _conv_args.int_pair(pad, 'pad', 'im2col', minimum=0),
                       _conv_args.int_pair(dilate, 'dilate', 'im2col'))
        self.cover_all = cover_all

    def _outsizes(self, h, w):
        (kh, kw), (sy, sx), (ph, pw), (dy, dx) = self.params
        return (_outsize(h, kh, sy, ph, self.cover_all, dy),
                _outsize(w, kw, sx, pw, self.cover_all, dx))

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim == 4)
        out_h, out_w = self._outsizes(
            type_check.eval(x_type.shape[2]), type_check.eval(x_type.shape[3]))
        type_check.expect(type_check.make_variable(out_h, 'out_h') > 0,
                          type_check.make_variable(out_w, 'out_w') > 0)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        n, c, h, w = self._in_shape = x.shape
        out_h, out_w = self._outsizes(h, w)
        ph, pw = self.params[2]
        img = xp.zeros(_padded_shape(x.shape, self.params), x.dtype)
        img[:, :, ph:ph + h, pw:pw + w] = x
        kh, kw = self.params[0]
        col = xp.empty((n, c, kh, kw, out_h, out_w), x.dtype)
        for j, i, window in _windows(self.params, out_h, out_w):
            col[:, :, j, i] = img[window]
        return col.reshape(n, c * kh * kw, out_h, out_w),

    def backward(self, indexes, grad_outputs):
        return Im2ColGrad(
            self.params, self.cover_all, self._in_shape).apply(grad_outputs)


class Im2ColGrad(function_node.FunctionNode):
    """Gradient of im2col: sums columns back into the image (col2im)."""

    def __init__(self, params, cover_all, in_shape):
        self.params = params
        self.cover_all = cover_all
        self._in_shape = in_shape

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        n, c, h, w = self._in_shape
        (kh, kw), _, (ph, pw), _ = self.params
        out_h, out_w = gy.shape[2:]
        col = gy.reshape(n, c, kh, kw, out_h, out_w)
        img = xp.zeros(_padded_shape(self._in_shape, self.params), gy.dtype)
        for j, i, window in _windows(self.params, out_h, out_w):
            img[window] += col[:, :, j, i]
        return img[:, :, ph:ph + h, pw:pw + w],

    def backward(self, indexes, grad_outputs):
        ksize, stride, pad, dilate = self.params
        return Im2Col(
            ksize, stride, pad, self.cover_all, dilate).apply(grad_outputs)


def im2col(x, ksize, stride=1, pad=0, cover_all=False, dilate=1):
    """Extracts the patches a convolution kernel sees into columns.

    For each output position ``(y, x)`` and kernel tap ``(j, i)``, channel
    ``c`` of the patch is
    ``x[n, c, y * sy + j * dy - ph, x * sx + i * dx - pw]`` (zero outside
    the image); the output stacks channel and taps as the axis
    ``c * kh * kw + j * kw + i``.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input image batch of
            a floating point dtype and shape ``(n, c, h, w)``.
        ksize (int or pair of ints): Kernel size ``(kh, kw)``.
        stride (int or pair of ints): Stride ``(sy, sx)``.
        pad (int or pair of ints): Zero padding ``(ph, pw)`` on both sides.
        cover_all (bool): If ``True``, the output covers the whole image even
            where the stride leaves a border, by padding the end by up to
            ``stride - 1`` more zeros.
        dilate (int or pair of ints): Dilation ``(dy, dx)`` of the kernel.

    Returns:
        Variable: Output variable of shape ``(n, c * kh * kw, out_h,
        out_w)``, where ``out_h = (h + 2 * ph - (kh - 1) * dy - 1) // sy + 1``
        (plus ``sy - 1`` in the numerator with ``cover_all``), and likewise
        ``out_w``.

    Raises:
        ValueError: If ``ksize``, ``stride`` or ``dilate`` is not a positive
            int (or a pair of them), or ``pad`` is not a non-negative one.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> y = F.im2col(x, 2, stride=2)
        >>> y.shape
        (1, 4, 2, 2)
        >>> y.array[0, :, 0, 1]
        array([2., 3., 6., 7.], dtype=float32)

    """
    return Im2Col(ksize, stride, pad, cover_all, dilate).apply((x,))[0]
