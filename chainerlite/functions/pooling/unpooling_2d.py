"""Two-dimensional unpooling and the node of its gradient."""

from chainerlite import backend
from chainerlite.functions.connection import _conv_utils
from chainerlite.functions.pooling import pooling_2d
from chainerlite.utils import type_check


def check_outsize(pooling, x_type):
    """Checks that pooling an output of ``pooling.outh x pooling.outw``
    gives the size of ``x``."""
    if pooling.outh is not None:
        type_check.expect(x_type.shape[2] == _conv_utils.get_conv_outsize(
            pooling.outh, pooling.kh, pooling.sy, pooling.ph,
            cover_all=pooling.cover_all))
    if pooling.outw is not None:
        type_check.expect(x_type.shape[3] == _conv_utils.get_conv_outsize(
            pooling.outw, pooling.kw, pooling.sx, pooling.pw,
            cover_all=pooling.cover_all))


def default_outsize(pooling, h, w):
    """Sets ``pooling.outh`` and ``outw`` from the input size where unset."""
    if pooling.outh is None:
        pooling.outh = _conv_utils.get_deconv_outsize(
            h, pooling.kh, pooling.sy, pooling.ph, cover_all=pooling.cover_all)
    if pooling.outw is None:
        pooling.outw = _conv_utils.get_deconv_outsize(
            w, pooling.kw, pooling.sx, pooling.pw, cover_all=pooling.cover_all)


class Unpooling2D(pooling_2d.Pooling2D):
    """Unpooling: copies each element over its window of the output."""

    function_name = 'unpooling_2d'

    def __init__(self, ksize, stride=None, pad=0, outsize=None,
                 cover_all=True):
        super().__init__(ksize, stride, pad, cover_all)
        self.outh, self.outw = (None, None) if outsize is None else outsize

    def check_type_forward(self, in_types):
        super().check_type_forward(in_types)
        check_outsize(self, in_types[0])

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        n, c, h, w = x.shape
        default_outsize(self, h, w)
        col = xp.broadcast_to(x[:, :, None, None],
                              (n, c, self.kh, self.kw, h, w))
        return _conv_utils.col2im(col, self.sy, self.sx, self.ph, self.pw,
                                  self.outh, self.outw),

    def backward(self, indexes, grad_outputs):
        return Unpooling2DGrad(self).apply(grad_outputs)


class Unpooling2DGrad(pooling_2d.Pooling2D):
    """Gradient of unpooling: sums the gradient over each window.

    Args:
        unpooling2d (Unpooling2D): The unpooling node (after its forward).

    """

    function_name = 'unpooling_2d'

    def __init__(self, unpooling2d):
        super().__init__(**unpooling2d.window_params())
        self.outsize = (unpooling2d.outh, unpooling2d.outw)

    def forward(self, inputs):
        gy, = inputs
        col = _conv_utils.im2col(gy, *self.window_args(),
                                 cover_all=self.cover_all)
        return col.sum(axis=(2, 3)),

    def backward(self, indexes, grad_outputs):
        func = Unpooling2D(outsize=self.outsize, **self.window_params())
        return func.apply(grad_outputs)


def unpooling_2d(x, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """Inverse operation of pooling for 2-D images.

    Each input element is copied to every position of its ``ksize`` window
    of the output; values of overlapping windows are summed. It is the
    transpose of a sum pooling with the same parameters.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, c, h, w)``.
        ksize (int or pair of ints): Window size; ``k`` means ``(k, k)``.
        stride (int or pair of ints or None): Stride; ``None`` means
            ``ksize``.
        pad (int or pair of ints): Padding cut from each side of the output.
        outsize (None or pair of ints): Output height and width. ``None``
            picks the size whose pooling gives ``(h, w)``; a given size must
            pool to ``(h, w)``.
        cover_all (bool): Whether the pooling this inverts covered all of
            its input (see :func:`max_pooling_2d`).

    Returns:
        Variable: Output of shape ``(n, c, out_h, out_w)`` and the dtype of
        ``x``.

    Raises:
        ValueError: If ``ksize`` or ``stride`` is not a positive int (or a
            pair of them), or ``pad`` is not a non-negative one.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[[[1, 2], [3, 4]]]], np.float32)
        >>> F.unpooling_2d(x, 2, cover_all=False).array[0, 0]
        array([[1., 1., 2., 2.],
               [1., 1., 2., 2.],
               [3., 3., 4., 4.],
               [3., 3., 4., 4.]], dtype=float32)

    """
    return Unpooling2D(ksize, stride, pad, outsize, cover_all).apply((x,))[0]
