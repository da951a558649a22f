"""Bilinear sampling of images at the points of a grid (the sampler of a
spatial transformer)."""

import numpy

import chainerlite
from chainerlite import backend
from chainerlite import function
from chainerlite import function_node
from chainerlite import utils
from chainerlite import variable
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import get_item
from chainerlite.functions.array import pad
from chainerlite.functions.array import reshape
from chainerlite.functions.array import transpose
from chainerlite.functions.util import forget
from chainerlite.utils import type_check


def sample_bilinear(x, py, px):
    """Bilinear samples of ``x`` (n, c, h, w) at the positions ``(py, px)``
    (Variables of shape ``(n, K)``); zero outside the image. Returns a
    Variable of shape ``(n, K, c)``."""
    xp = backend.get_array_module(getattr(x, 'array', x))
    n, c, h, w = x.shape
    # As Chainer, the image is read with one pixel of zeros around it: a
    # corner outside the image reads 0 (an infinite pixel nearby does not
    # reach it through a zero weight)
    padded = pad.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), 'constant')
    flat = transpose.transpose(reshape.reshape(padded, (n, c, -1)), (0, 2, 1))
    py, px = _Clamp(h).apply((py,))[0], _Clamp(w).apply((px,))[0]
    y0 = _cell(xp, py.array, h)
    x0 = _cell(xp, px.array, w)
    batch = xp.broadcast_to(xp.arange(n)[:, None], y0.shape)
    dy, dx = py - y0, px - x0
    out = None
    for cy, wy in ((y0, 1 - dy), (y0 + 1, dy)):
        for cx, wx in ((x0, 1 - dx), (x0 + 1, dx)):
            index = ((cy + 1) * (w + 2) + (cx + 1)).astype(numpy.intp)
            weight = wy * wx
            term = get_item.get_item(flat, (batch, index)) * broadcast.broadcast_to(
                reshape.reshape(weight, weight.shape + (1,)), weight.shape + (c,)
            )
            out = term if out is None else out + term
    return out


class _Clamp(function_node.FunctionNode):
    """Positions clamped to one pixel of zeros around the image, as in
    Chainer; NaN is kept (it reads that border with NaN weights). The
    gradient is multiplied by the mask of the free positions, as Chainer's
    is: 0 on or beyond the clamp and at NaN, but NaN where the incoming
    gradient is NaN or infinite."""

    def __init__(self, size):
        self.size = size

    def forward(self, inputs):
        (p,) = inputs
        xp = backend.get_array_module(p)
        self._free = ((p > -1) & (p < self.size)).astype(p.dtype)
        return (utils.force_array(xp.clip(p, -1, self.size), p.dtype),)

    def backward(self, indexes, grad_outputs):
        return (grad_outputs[0] * self._free,)


def _cell(xp, p, size):
    """The pixel row (or column) at or before each clamped position ``p``:
    -1 for NaN, at most ``size - 1`` (-1 and ``size`` are the zero border)."""
    cell = xp.floor(p)
    cell[xp.isnan(cell)] = -1
    return xp.minimum(cell, size - 1)


def spatial_transformer_sampler(x, grid):
    """2-D image sampler of spatial transformer networks.

    See `Spatial Transformer Networks <https://arxiv.org/abs/1506.02025>`_.
    Each output pixel is the input read at the point its grid entry names,
    interpolated bilinearly between the four nearest pixels; the input is
    taken as zero outside the image. The grid coordinates are normalised:
    ``-1`` and ``1`` are the centres of the first and last pixels of each
    axis.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input images of
            shape ``(n, c, h, w)``.
        grid (Variable or numpy.ndarray or cupy.ndarray): Sampling points
            of shape ``(n, 2, out_h, out_w)``: channel 0 holds the x
            (column) coordinates, channel 1 the y (row) coordinates, as
            :func:`spatial_transformer_grid` makes them.

    Returns:
        Variable: Output of shape ``(n, c, out_h, out_w)``.

    Raises:
        ~chainerlite.utils.type_check.InvalidType: If ``x`` is not 4-d or
            ``grid`` is not of shape ``(n, 2, out_h, out_w)``, or ``x`` is
            not of a floating dtype or ``grid`` not of ``x``'s dtype.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[[[0, 10], [20, 30]]]], np.float32)
        >>> grid = np.array([[[[0]], [[-1]]]], np.float32)  # x=0, y=-1
        >>> F.spatial_transformer_sampler(x, grid).array
        array([[[[5.]]]], dtype=float32)

    """
    if (
        len(x.shape) != 4
        or len(grid.shape) != 4
        or grid.shape[1] != 2
        or grid.shape[0] != x.shape[0]
    ):
        error = type_check.InvalidType(
            'x: (n, c, h, w), grid: (n, 2, out_h, out_w)',
            'spatial_transformer_sampler: x.shape {}, grid.shape {}'.format(
                tuple(x.shape), tuple(grid.shape)
            ),
        )
        # Chainer 7.8.1 reads grid.shape[1] and x.shape[0] with the ranks:
        # fewer axes are an IndexError there
        if len(x.shape) < 1 or len(grid.shape) < 2:
            with type_check.invalid_as(IndexError):
                raise error
        raise error
    return SpatialTransformerSampler().apply((x, grid))[0]


def _sample(x, grid):
    # The sampling as differentiable functions of Variables.
    n, c, h, w = x.shape
    out_h, out_w = grid.shape[2:]
    grid = reshape.reshape(grid, (n, 2, out_h * out_w))
    px = (grid[:, 0] + 1) * ((w - 1) / 2.0)
    py = (grid[:, 1] + 1) * ((h - 1) / 2.0)
    y = sample_bilinear(x, py, px)  # (n, out_h * out_w, c)
    return reshape.reshape(transpose.transpose(y, (0, 2, 1)), (n, c, out_h, out_w))


class SpatialTransformerSampler(forget.Forget):
    """The sampler as one node that retains ``x`` and ``grid`` and nothing
    else, as Chainer's does. Its forward builds the sampling's graph on
    copies of the inputs' arrays, which its first backward differentiates
    and drops; a backward that builds a graph (double backprop), or a
    second one, recomputes the sampling from the retained inputs (as
    :func:`~chainerlite.functions.forget` does), so it is differentiable
    twice, where Chainer's old-style node is not."""

    def __init__(self):
        super().__init__(_sample)
        self._inner = None

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        self._draws = []  # nothing is drawn
        self._n_outputs = 1  # what the recomputation must give again
        xs = [variable.Variable(a) for a in inputs]
        if not chainerlite.config.enable_backprop:
            with function.no_backprop_mode():
                return (_sample(*xs).array,)
        with function.force_backprop_mode():
            y = _sample(*xs)
        self._inner = xs, y
        return (y.array,)

    def backward(self, indexes, grad_outputs):
        if chainerlite.config.enable_backprop or self._inner is None:
            self._inner = None
            return super().backward(indexes, grad_outputs)
        (xs, y), self._inner = self._inner, None
        return tuple(chainerlite.grad([y], [xs[i] for i in indexes], grad_outputs))

    @property
    def label(self):
        return 'SpatialTransformerSampler'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'grid'))
        x_type, grid_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            grid_type.dtype == x_type.dtype,
            x_type.ndim == 4,
            grid_type.ndim == 4,
            grid_type.shape[1] == 2,
            x_type.shape[0] == grid_type.shape[0],
        )
