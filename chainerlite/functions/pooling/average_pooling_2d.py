"""Two-dimensional average pooling and the node of its gradient."""

from chainerlite import backend
from chainerlite.functions.connection import _conv_utils
from chainerlite.functions.pooling import pooling_2d


class AveragePooling2D(pooling_2d.Pooling2D):
    """Average pooling over windows of 2-D images (no cover_all mode)."""

    function_name = 'average_pooling_2d'

    def __init__(self, ksize, stride=None, pad=0, pad_value=0):
        if pad_value is not None and pad_value != 0:
            raise ValueError(
                'pad_value must be either 0 or None, not {}.'.format(
                    pad_value))
        super().__init__(ksize, stride, pad, cover_all=False)
        self.pad_value = pad_value

    def divisor(self, xp, h, w, dtype):
        """Number of averaged elements: a scalar, or one per window."""
        if self.pad_value is not None:
            return dtype.type(self.kh * self.kw)
        # Padded elements are left out: count the input pixels of each
        # window.
        ones = xp.ones((1, 1, h, w), dtype)
        col = _conv_utils.im2col(ones, *self.window_args())
        return col.sum(axis=(2, 3))

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self._in_shape = x.shape
        col = _conv_utils.im2col(x, *self.window_args())
        divisor = self.divisor(xp, x.shape[2], x.shape[3], x.dtype)
        return (col.sum(axis=(2, 3)) / divisor).astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        return AveragePooling2DGrad(self).apply(grad_outputs)


class AveragePooling2DGrad(pooling_2d.Pooling2D):
    """Gradient of average pooling: spreads each gradient over its window.

    Args:
        apool2d (AveragePooling2D): The average pooling node (after its
            forward).

    """

    function_name = 'average_pooling_2d'

    def __init__(self, apool2d):
        super().__init__(**apool2d.window_params())
        self.apool2d = apool2d

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        n, c, h, w = self.apool2d._in_shape
        gy = gy / self.apool2d.divisor(xp, h, w, gy.dtype)
        gcol = xp.broadcast_to(gy[:, :, None, None],
                               (n, c, self.kh, self.kw) + gy.shape[2:])
        return _conv_utils.col2im(
            gcol, self.sy, self.sx, self.ph, self.pw, h, w),

    def backward(self, indexes, grad_outputs):
        a = self.apool2d
        func = AveragePooling2D((a.kh, a.kw), (a.sy, a.sx), (a.ph, a.pw),
                                a.pad_value)
        return func.apply(grad_outputs)


def average_pooling_2d(x, ksize, stride=None, pad=0, pad_value=0):
    """Spatial average pooling function.

    Each output element is the average of a ``ksize`` window of its input
    channel; windows move by ``stride`` over the padded input. As in
    :func:`convolution_2d` without ``cover_all``, the output height is
    ``(h + 2p - k) // s + 1`` (likewise for the width).

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, c, h, w)``.
        ksize (int or pair of ints): Window size; ``k`` means ``(k, k)``.
        stride (int or pair of ints or None): Stride; ``None`` means
            ``ksize``.
        pad (int or pair of ints): Padding of each side.
        pad_value (0 or None): With ``0`` the padded elements count as
            zeros, which biases the averages of border windows towards zero;
            with ``None`` they are left out of the averages (as
            ``average_pooling_nd`` does).

    Returns:
        Variable: Output of shape ``(n, c, out_h, out_w)`` and the dtype of
        ``x``.

    Raises:
        ValueError: If ``pad_value`` is neither ``0`` nor ``None``, if
            ``ksize`` or ``stride`` is not a positive int (or a pair of
            them), or if ``pad`` is not a non-negative one.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> F.average_pooling_2d(x, 2).array
        array([[[[ 2.5,  4.5],
                 [10.5, 12.5]]]], dtype=float32)
        >>> F.average_pooling_2d(x, 2, pad=1, pad_value=None).array[0, 0, 0]
        array([0. , 1.5, 3. ], dtype=float32)

    """
    return AveragePooling2D(ksize, stride, pad, pad_value).apply((x,))[0]
