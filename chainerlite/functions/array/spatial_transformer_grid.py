"""Sampling grid of a spatial transformer."""

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import reshape
from chainerlite.functions.math import matmul
from chainerlite.utils import type_check


def _coordinates(xp, output_shape, dtype):
    # (x_t, y_t, 1) of each output position, as rows of shape (3, h * w)
    h, w = output_shape
    ys, xs = xp.meshgrid(
        xp.linspace(-1.0, 1.0, h), xp.linspace(-1.0, 1.0, w), indexing='ij'
    )
    return xp.stack([xs.ravel(), ys.ravel(), xp.ones(h * w)]).astype(dtype)


class SpatialTransformerGrid(function_node.FunctionNode):
    """``theta @ (x_t, y_t, 1)`` at each output position."""

    def __init__(self, output_shape):
        self.output_shape = output_shape

    def forward(self, inputs):
        # as Chainer's node, theta is kept; backward takes its batch size
        # and dtype from it
        self.retain_inputs((0,))
        (theta,) = inputs
        xp = backend.get_array_module(theta)
        n = len(theta)
        coords = _coordinates(xp, self.output_shape, theta.dtype)
        grid = xp.matmul(theta, xp.broadcast_to(coords, (n,) + coords.shape))
        return (grid.reshape((n, 2) + tuple(self.output_shape)),)

    def backward(self, indexes, grad_outputs):
        (theta,) = self.get_retained_inputs()
        xp = backend.get_array_module(theta.array)
        n = len(theta)
        coords = _coordinates(xp, self.output_shape, theta.dtype)
        gy = reshape.reshape(grad_outputs[0], (n, 2, coords.shape[1]))
        coords_t = broadcast.broadcast_to(coords.T, (n,) + coords.T.shape)
        return (matmul.matmul(gy, coords_t),)


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
    h, w = output_shape
    return SpatialTransformerGrid((h, w)).apply((theta,))[0]
