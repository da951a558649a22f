"""Base class of pooling nodes over 2-D images (Chainer's ``Pooling2D``)."""

from chainerlite.functions.pooling import pooling_nd


class Pooling2D(pooling_nd.PoolingND):
    """Base class of a pooling node over windows of 2-D images.

    A subclass defines ``forward`` (and ``backward``); this class checks the
    arguments and the input (a float array of shape ``(n, c, h, w)``) and
    keeps the window geometry both as tuples (``ksize``, ``stride``, ``pad``)
    and under Chainer's names ``kh``, ``kw``, ``sy``, ``sx``, ``ph``, ``pw``.

    Args:
        ksize (int or pair of ints): Window size.
        stride (int or pair of ints or None): Stride; ``None`` means
            ``ksize``.
        pad (int or pair of ints): Padding.
        cover_all (bool): Whether the windows cover every input element
            (see :func:`~chainerlite.functions.max_pooling_2d`).
        return_indices (bool): Kept for subclasses that can return the
            position of each selected element.

    Raises:
        ValueError: If ``ksize``, ``stride`` or ``pad`` is not a valid int
            or pair of ints.
    """

    function_name = 'pooling_2d'

    def __init__(self, ksize, stride=None, pad=0, cover_all=True, return_indices=False):
        super().__init__(2, ksize, stride, pad, cover_all)
        self.kh, self.kw = self.ksize
        self.sy, self.sx = self.stride
        self.ph, self.pw = self.pad
        self.return_indices = return_indices
