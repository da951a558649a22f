"""Base class of the 2-D pooling nodes and helpers for indexed windows.

A max pooling picks one element of each window; its ``indexes`` array (one
entry per output element) holds the position of that element in the
flattened ``kh * kw`` window. :func:`scatter_windows` puts values back at
those positions and :func:`gather_windows` reads them; each is the
transpose of the other.
"""

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.connection import _conv_args
from chainerlite.functions.connection import _conv_utils
from chainerlite.utils import type_check


class Pooling2D(function_node.FunctionNode):
    """Base class of pooling over windows of 2-D images.

    Args:
        ksize (int or pair of ints): Window size.
        stride (int or pair of ints or None): Stride; ``None`` means
            ``ksize``.
        pad (int or pair of ints): Padding.
        cover_all (bool): See
            :func:`~chainerlite.functions.convolution_2d`.

    Raises:
        ValueError: If ``ksize`` or ``stride`` is not a positive int (or a
            pair of them), or ``pad`` not a non-negative one; the message
            names the public function, the ``function_name`` attribute of
            each subclass.

    """

    def __init__(self, ksize, stride=None, pad=0, cover_all=True):
        if stride is None:
            stride = ksize
        where = self.function_name
        self.kh, self.kw = _conv_args.int_pair(ksize, 'ksize', where)
        self.sy, self.sx = _conv_args.int_pair(stride, 'stride', where)
        self.ph, self.pw = _conv_args.int_pair(pad, 'pad', where, minimum=0)
        self.cover_all = cover_all

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 4,
        )

    def window_args(self):
        """Returns ``(kh, kw, sy, sx, ph, pw)``."""
        return self.kh, self.kw, self.sy, self.sx, self.ph, self.pw

    def window_params(self):
        """Returns the keyword arguments of a node with the same windows."""
        return {'ksize': (self.kh, self.kw), 'stride': (self.sy, self.sx),
                'pad': (self.ph, self.pw), 'cover_all': self.cover_all}


def scatter_windows(x, indexes, pooling, h, w):
    """Puts each element of ``x`` at its indexed place in its window.

    Args:
        x (numpy.ndarray or cupy.ndarray): Values of shape
            ``(n, c, out_h, out_w)``.
        indexes (numpy.ndarray or cupy.ndarray): Integer positions in the
            flattened windows, of the shape of ``x``.
        pooling (Pooling2D): Node whose window parameters are used.
        h, w (int): Size of the images the windows lie on.

    Returns:
        numpy.ndarray or cupy.ndarray: Images of shape ``(n, c, h, w)``;
        values of overlapping windows are summed.

    """
    xp = backend.get_array_module(x)
    kh, kw, sy, sx, ph, pw = pooling.window_args()
    n, c, out_h, out_w = x.shape
    img = xp.zeros((n, c, h + 2 * ph + sy - 1, w + 2 * pw + sx - 1),
                   dtype=x.dtype)
    taps = _conv_utils.tap_views(img, kh, kw, sy, sx, 1, 1, out_h, out_w)
    zero = xp.zeros((), dtype=x.dtype)
    for k, tap in enumerate(taps):
        tap += xp.where(indexes == k, x, zero)   # adds into img
    return img[:, :, ph:h + ph, pw:w + pw]


def gather_windows(x, indexes, pooling):
    """Reads the indexed element of each window of ``x``.

    Args:
        x (numpy.ndarray or cupy.ndarray): Images of shape ``(n, c, h, w)``.
        indexes (numpy.ndarray or cupy.ndarray): Integer positions in the
            flattened windows, of the output shape.
        pooling (Pooling2D): Node whose window parameters (and
            ``cover_all``) are used.

    Returns:
        numpy.ndarray or cupy.ndarray: Array of the shape of ``indexes``.

    """
    xp = backend.get_array_module(x)
    taps = _conv_utils.window_views(x, *pooling.window_args(),
                                    cover_all=pooling.cover_all)
    y = xp.zeros(indexes.shape, dtype=x.dtype)
    for k, tap in enumerate(taps):
        xp.copyto(y, tap, where=indexes == k)
    return y
