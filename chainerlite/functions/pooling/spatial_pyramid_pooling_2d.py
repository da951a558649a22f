"""Spatial pyramid pooling."""

import sys

from chainerlite.functions.array import concat
from chainerlite.functions.array import reshape
from chainerlite.functions.pooling import max_pooling_2d


def _level_window(size, n_bins):
    # A window (and padding) that tiles ``size`` pixels with ``n_bins``
    # windows, the padding split between both ends.
    ksize = -(-size // n_bins)
    return ksize, (ksize * n_bins - size) // 2


def spatial_pyramid_pooling_2d(x, pyramid_height, pooling=None):
    """Spatial pyramid pooling function.

    Pools the feature map at ``pyramid_height`` levels: level ``l`` divides
    it into ``2**l x 2**l`` bins and max-pools each; the results of all
    levels are flattened and concatenated, which gives an output whose size
    does not depend on the input's height and width. See `Spatial Pyramid
    Pooling in Deep Convolutional Networks for Visual Recognition
    <https://arxiv.org/abs/1406.4729>`_.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, c, h, w)`` and a floating point dtype.
        pyramid_height (int): The number of levels.
        pooling (str): The pooling of each bin; only ``'max'`` is
            supported, and it must be given.

    Returns:
        Variable: Output of shape ``(n, c * (4**pyramid_height - 1) / 3, 1,
        1)`` and ``x``'s dtype.

    Raises:
        MemoryError: If that output is more than NumPy can address (at
            once, rather than after pooling every level that fits).

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(16, dtype=np.float32).reshape((1, 1, 4, 4))
        >>> F.spatial_pyramid_pooling_2d(x, 2, pooling='max').array.ravel()
        array([15.,  5.,  7., 13., 15.], dtype=float32)

    """
    if pooling is None:
        raise ValueError("spatial_pyramid_pooling_2d: pooling must be given ('max')")
    if pooling != 'max':
        raise ValueError(
            "spatial_pyramid_pooling_2d: pooling must be 'max', not {!r}".format(
                pooling
            )
        )
    n, c, height, width = x.shape
    # (4 ** 32 - 1) / 3 features a channel are more than NumPy can index
    if pyramid_height > 32 or (
        n * c * (4**pyramid_height - 1) // 3 * x.dtype.itemsize > sys.maxsize
    ):
        raise MemoryError(
            'spatial_pyramid_pooling_2d: the output of {} levels, (4 ** {} - 1) '
            '/ 3 features a channel, is too large'.format(
                pyramid_height, pyramid_height
            )
        )
    levels = []
    for level in range(pyramid_height):
        n_bins = 2**level
        kh, ph = _level_window(height, n_bins)
        kw, pw = _level_window(width, n_bins)
        y = max_pooling_2d.max_pooling_2d(x, (kh, kw), stride=(kh, kw), pad=(ph, pw))
        # the shape in full: a level of one bin is already (n, c, 1, 1) and
        # gets no Reshape node, as in Chainer
        levels.append(reshape.reshape(y, (n, c * y.shape[2] * y.shape[3], 1, 1)))
    return concat.concat(levels, axis=1)
