"""Sampling grid of a spatial transformer."""

from chainerlite import backend
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import reshape
from chainerlite.functions.math import matmul
from chainerlite.utils import type_check


def spatial_transformer_grid(theta, output_shape):
    """2-D sampling grid of an affine transformation.

    See `Spatial Transformer Networks <https://arxiv.org/abs/1506.02025>`_.
    The output positions are spread evenly over ``[-1, 1]`` along each axis
    (``-1`` and ``1`` are the centres of the first and last pixels); the
    grid holds, for each, the source point ``theta @ (x_t, y_t, 1)`` at
    which :func:`spatial_transformer_sampler` reads its input.

    Args:
        theta (Variable or numpy.ndarray or cupy.ndarray): Affine
            transformations of shape ``(n, 2, 3)``.
        output_shape (tuple of two ints): Height and width ``(h, w)`` of
            the grid.

    Returns:
        Variable: Grid of shape ``(n, 2, h, w)`` and the dtype of
        ``theta``: channel 0 holds the x (column) coordinates, channel 1
        the y (row) coordinates, both normalised to ``[-1, 1]``.

    Raises:
        ~chainerlite.utils.type_check.InvalidType: If ``theta`` is not a
            float array of shape ``(n, 2, 3)``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> identity = np.array([[[1, 0, 0], [0, 1, 0]]], np.float32)
        >>> F.spatial_transformer_grid(identity, (2, 3)).array[0]
        array([[[-1.,  0.,  1.],
                [-1.,  0.,  1.]],
        <BLANKLINE>
               [[-1., -1., -1.],
                [ 1.,  1.,  1.]]], dtype=float32)

    """
    shape = tuple(theta.shape)
    dtype = getattr(theta, 'dtype', None)
    if len(shape) != 3 or shape[1:] != (2, 3) or dtype.kind != 'f':
        raise type_check.InvalidType(
            'theta: float array of shape (n, 2, 3)',
            'spatial_transformer_grid: theta.shape {}, dtype {}'.format(shape, dtype),
        )
    xp = backend.get_array_module(getattr(theta, 'array', theta))
    h, w = output_shape
    ys, xs = xp.meshgrid(
        xp.linspace(-1.0, 1.0, h), xp.linspace(-1.0, 1.0, w), indexing='ij'
    )
    coords = xp.stack([xs.ravel(), ys.ravel(), xp.ones(h * w)]).astype(dtype)
    coords = broadcast.broadcast_to(coords, (shape[0], 3, h * w))
    return reshape.reshape(matmul.matmul(theta, coords), (shape[0], 2, h, w))
