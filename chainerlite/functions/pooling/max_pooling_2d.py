"""Two-dimensional max pooling and the nodes of its gradients."""

import numpy

from chainerlite import backend
from chainerlite.functions.connection import _conv_utils
from chainerlite.functions.pooling import pooling_2d


class MaxPooling2D(pooling_2d.Pooling2D):
    """Max pooling over windows of 2-D images."""

    function_name = 'max_pooling_2d'

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        xp = backend.get_array_module(x)
        taps = _conv_utils.window_views(
            x, *self.window_args(), pval=-float('inf'),
            cover_all=self.cover_all)
        # The running maximum over the taps (NaN propagates, as in max), and
        # the first tap that holds it (as argmax would give).
        y = taps[0].copy()
        self.indexes = xp.zeros(y.shape, dtype=numpy.intp)
        for k, tap in enumerate(taps[1:], 1):
            xp.copyto(self.indexes, k, where=tap > y)
            xp.maximum(y, tap, out=y)
        return y,

    def backward(self, indexes, grad_outputs):
        return MaxPooling2DGrad(self).apply(grad_outputs)


class MaxPooling2DGrad(pooling_2d.Pooling2D):
    """Gradient of max pooling: routes each gradient to its window's max.

    Args:
        mpool2d (MaxPooling2D): The max pooling node (after its forward).

    """

    function_name = 'max_pooling_2d'

    def __init__(self, mpool2d):
        super().__init__(**mpool2d.window_params())
        self.mpool2d = mpool2d

    def forward(self, inputs):
        gy, = inputs
        h, w = self.mpool2d._in_shape[2:]
        return pooling_2d.scatter_windows(
            gy, self.mpool2d.indexes, self, h, w),

    def backward(self, indexes, grad_outputs):
        return MaxPooling2DWithIndexes(self.mpool2d).apply(grad_outputs)


class MaxPooling2DWithIndexes(pooling_2d.Pooling2D):
    """Max pooling that reuses the argmax positions of an earlier pooling.

    Args:
        mpool2d (MaxPooling2D): The max pooling node whose ``indexes`` are
            used.

    """

    function_name = 'max_pooling_2d'

    def __init__(self, mpool2d):
        super().__init__(**mpool2d.window_params())
        self.mpool2d = mpool2d

    def forward(self, inputs):
        x, = inputs
        return pooling_2d.gather_windows(x, self.mpool2d.indexes, self),

    def backward(self, indexes, grad_outputs):
        return MaxPooling2DGrad(self.mpool2d).apply(grad_outputs)


def max_pooling_2d(x, ksize, stride=None, pad=0, cover_all=True,
                   return_indices=False):
    """Spatial max pooling function.

    Each output element is the maximum of a ``ksize`` window of its input
    channel; windows move by ``stride`` over the input padded with
    ``-inf``. With ``h`` the input height, ``k`` the window height, ``s``
    the stride and ``p`` the padding, the output height is
    ``(h + 2p - k + s - 1) // s + 1`` when ``cover_all`` is ``True`` (every
    input element lies in some window) and ``(h + 2p - k) // s + 1``
    otherwise; likewise for the width.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, c, h, w)``.
        ksize (int or pair of ints): Window size; ``k`` means ``(k, k)``.
        stride (int or pair of ints or None): Stride; ``None`` means
            ``ksize``.
        pad (int or pair of ints): Padding of each side.
        cover_all (bool): Whether the windows cover all of the input.
        return_indices (bool): Also return the position of each maximum in
            its flattened ``kh * kw`` window (as used by
            :func:`upsampling_2d`).

    Returns:
        Variable or tuple: The output of shape ``(n, c, out_h, out_w)``
        and the dtype of ``x``; with ``return_indices``, the pair of it and
        the integer array of positions, of the same shape.

    Raises:
        ValueError: If ``ksize`` or ``stride`` is not a positive int (or a
            pair of them), or ``pad`` is not a non-negative one.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> F.max_pooling_2d(x, 2).array
        array([[[[ 5.,  7.],
                 [13., 15.]]]], dtype=float32)

    """
    func = MaxPooling2D(ksize, stride, pad, cover_all)
    y, = func.apply((x,))
    if return_indices:
        return y, func.indexes
    return y
