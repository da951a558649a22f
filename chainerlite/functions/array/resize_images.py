"""Resizing of images by bilinear or nearest-neighbour interpolation."""

from __future__ import annotations

import numpy
import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.array import get_item
from chainerlite.utils import _chainer_errors
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable

_MODES = ('bilinear', 'nearest')


def _axis_samples(n_in, n_out, mode, align_corners):
    """The first input pixel of each output pixel along one axis and the
    weight of the next one (float64), as Chainer places them: bilinear
    samples at ``i * (n_in - 1) / (n_out - 1)`` (corners aligned) or
    ``max((i + 0.5) * n_in / n_out - 0.5, 0)``; nearest takes pixel
    ``floor(i * n_in / n_out)`` whatever ``align_corners``."""
    i = numpy.arange(n_out, dtype=numpy.float64)
    if mode == 'nearest':
        first = numpy.minimum(numpy.floor(i * (n_in / n_out)), n_in - 1)
        return first.astype(numpy.intp), numpy.zeros(n_out)
    if align_corners:
        position = numpy.linspace(0, n_in - 1, num=n_out)
    else:
        position = numpy.maximum((i + 0.5) * (n_in / n_out) - 0.5, 0)
    weight, first = numpy.modf(position)
    return first.astype(numpy.intp), weight


class _Corners(object):
    """The four input pixels of every output pixel and their weights.

    ``pixels`` holds ``(rows, cols)`` index arrays of shape ``(oh, ow)``
    per corner (top left, top right, bottom left, bottom right; the second
    row or column is the last one at the border); ``weights`` holds the
    corner weights in ``dtype``, computed as Chainer does so that the same
    terms are rounded alike. ``rows`` and ``cols`` are the same map as the
    matrices ``(oh, h)`` and ``(ow, w)`` of each axis (``y = rows @ x @
    cols.T``), which compute it far faster where no value is NaN or
    infinite (there the zero weights they add change nothing).
    """

    def __init__(self, in_shape, out_shape, mode, align_corners, dtype, xp):
        (v, vw), (u, uw) = (
            _axis_samples(n_in, n_out, mode, align_corners)
            for n_in, n_out in zip(in_shape, out_shape)
        )
        v1 = numpy.minimum(v + 1, in_shape[0] - 1)
        u1 = numpy.minimum(u + 1, in_shape[1] - 1)
        vw = vw.astype(dtype)[:, None]
        right = numpy.broadcast_to(uw.astype(dtype)[None, :], out_shape)
        self.weights = [xp.asarray(w) for w in _weights(vw, right)]
        grid = [numpy.broadcast_to(a, out_shape) for a in (v[:, None], v1[:, None])]
        cols = [numpy.broadcast_to(a, out_shape) for a in (u[None, :], u1[None, :])]
        self.pixels = [(xp.asarray(r), xp.asarray(c)) for r in grid for c in cols]
        self.rows, self.cols = (
            xp.asarray(_matrix(first, second, weight, n_in))
            for first, second, weight, n_in in (
                (v, v1, vw[:, 0], in_shape[0]),
                (u, u1, right[0], in_shape[1]),
            )
        )


def _weights(vw, uw):
    """The weights of the top left, top right, bottom left and bottom right
    corners for the weights ``vw`` of the next row and ``uw`` of the next
    column, formed as Chainer forms them (the same roundings)."""
    left = 1 - uw
    bottom_left, bottom_right = left * vw, uw * vw
    return left - bottom_left, uw - bottom_right, bottom_left, bottom_right


def compute_indices_and_weights(out_size, in_size, mode, align_corners, xp):
    """Chainer's sampling of a resize from ``in_size`` to ``out_size``
    (``(H, W)`` pairs): ``(v, u, vw, uw)``, the first input row and column
    of each output row and column and the weights of the next ones, all
    float64 arrays of ``xp`` (the weights 0 for ``'nearest'``)."""
    (v, vw), (u, uw) = (
        _axis_samples(n_in, n_out, mode, align_corners)
        for n_in, n_out in zip(in_size, out_size)
    )
    return tuple(xp.asarray(a, numpy.float64) for a in (v, u, vw, uw))


def _corner_indices(v, u, H, W):
    v1, u1 = numpy.minimum(v + 1, H - 1), numpy.minimum(u + 1, W - 1)
    return [(v, u), (v, u1), (v1, u), (v1, u1)]


def interpolate_bilinear_cpu(x, v, u, vw, uw):
    """Bilinear interpolation of the images ``x`` (``(B, C, H, W)``) at the
    rows ``v`` and columns ``u`` (integer arrays of the output's shape
    ``(out_H, out_W)``) with the weights ``vw`` and ``uw`` of the next row
    and column (in ``x``'s dtype): ``(B, C, out_H, out_W)``."""
    H, W = x.shape[2:]
    terms = [
        x[:, :, rows, cols] * w
        for (rows, cols), w in zip(_corner_indices(v, u, H, W), _weights(vw, uw))
    ]
    return ((terms[0] + terms[1]) + terms[2]) + terms[3]


def interpolate_grad_bilinear_cpu(gy, v, u, vw, uw, H, W):
    """The gradient of :func:`interpolate_bilinear_cpu` for ``gy``
    (``(B, C, out_H, out_W)``): each weighted ``gy`` added into its input
    pixel of ``(B, C, H, W)``, summed in float64, in ``gy``'s dtype."""
    B, C = gy.shape[:2]
    gx = numpy.zeros((B, C, H, W))
    for (rows, cols), w in zip(_corner_indices(v, u, H, W), _weights(vw, uw)):
        numpy.add.at(gx, (slice(None), slice(None), rows, cols), gy * w)
    return gx.astype(gy.dtype)


def _matrix(first, second, weight, n_in):
    # (n_out, n_in): 1 - weight at the first pixel, weight at the second
    matrix = numpy.zeros((len(first), n_in))
    out = numpy.arange(len(first))
    numpy.add.at(matrix, (out, first), 1 - weight.astype(numpy.float64))
    numpy.add.at(matrix, (out, second), weight.astype(numpy.float64))
    return matrix


def _finite(a):
    return bool(backend.get_array_module(a).isfinite(a).all())


class _Gather(function_node.FunctionNode):
    """``y[..., i, j]``: the weighted sum of the four corners of ``(i, j)``
    (every corner, so a NaN or infinite pixel next to a sample reaches it
    even at weight 0, as in Chainer). Its backward is :class:`_Scatter`."""

    def __init__(self, corners, in_shape):
        self.corners = corners
        self.in_shape = in_shape

    @property
    def label(self):
        return 'ResizeImages'  # Chainer's label of its resizing nodes

    def forward(self, inputs):
        (x,) = inputs
        if _finite(x):
            xp = backend.get_array_module(x)
            rows = self.corners.rows.astype(x.dtype)
            cols_t = xp.ascontiguousarray(self.corners.cols.T, x.dtype)
            return (xp.matmul(xp.matmul(rows, x), cols_t),)
        with numpy.errstate(invalid='ignore'):  # inf * 0 is NaN, as in Chainer
            terms = [
                x[:, :, rows, cols] * w.astype(x.dtype, copy=False)
                for (rows, cols), w in zip(self.corners.pixels, self.corners.weights)
            ]
        return (((terms[0] + terms[1]) + terms[2]) + terms[3],)

    def backward(self, indexes, grad_outputs):
        return _Scatter(self.corners, self.in_shape).apply(grad_outputs)


class _Scatter(function_node.FunctionNode):
    """Adjoint of :class:`_Gather`: each output gradient times the corner
    weights added into the input pixels, summed in float64."""

    def __init__(self, corners, in_shape):
        self.corners = corners
        self.in_shape = in_shape

    @property
    def label(self):
        return 'ResizeImagesGrad'  # Chainer's label of their adjoints

    def forward(self, inputs):
        (gy,) = inputs
        xp = backend.get_array_module(gy)
        if _finite(gy):
            rows = xp.ascontiguousarray(self.corners.rows.T, gy.dtype)
            cols = self.corners.cols.astype(gy.dtype)
            return (xp.matmul(xp.matmul(rows, gy), cols),)
        n, c = gy.shape[:2]
        gx = xp.zeros((n, c) + tuple(self.in_shape))
        for (rows, cols), w in zip(self.corners.pixels, self.corners.weights):
            with numpy.errstate(invalid='ignore'):
                values = gy * w.astype(gy.dtype, copy=False)
            index = (slice(None), slice(None), rows, cols)
            get_item.add_at(gx, index, values.astype(numpy.float64))
        return (gx.astype(gy.dtype),)

    def backward(self, indexes, grad_outputs):
        return _Gather(self.corners, self.in_shape).apply(grad_outputs)


def _corners_of(node, array):
    """The ``_Corners`` of a resize node (its ``in_shape``,
    ``output_shape``, ``mode`` and ``align_corners``) for ``array``'s dtype
    and module."""
    return _Corners(
        node.in_shape,
        node.output_shape,
        node.mode,
        node.align_corners,
        array.dtype,
        backend.get_array_module(array),
    )


class ResizeImages(_Gather):
    """Resizing of a batch of images."""

    def __init__(self, output_shape, mode, align_corners):
        self.output_shape = output_shape
        self.mode = mode
        self.align_corners = align_corners

    # Chainer's attributes: the output height and width
    out_H = property(lambda self: self.output_shape[0])
    out_W = property(lambda self: self.output_shape[1])

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim == 4)

    def forward(self, inputs):
        (x,) = inputs
        self.in_shape = x.shape[2:]
        self.corners = _corners_of(self, x)
        return super().forward(inputs)


class ResizeImagesGrad(_Scatter):
    """Chainer's gradient node of :func:`resize_images`, by its
    constructor: applied to ``(gy,)``, the gradient of images of
    ``input_shape`` (``(B, C, H, W)``) resized to ``output_shape``
    (``(out_H, out_W)``) by ``mode``; its own gradient resizes again."""

    def __init__(self, input_shape, output_shape, mode, align_corners):
        self.input_shape = tuple(input_shape)
        self.output_shape = tuple(output_shape)
        self.mode = mode
        self.align_corners = align_corners
        self.in_shape = self.input_shape[2:]

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('gy',))
        (gy_type,) = in_types
        type_check.expect(gy_type.dtype.kind == 'f', gy_type.ndim == 4)

    def forward(self, inputs):
        self.corners = _corners_of(self, inputs[0])
        return super().forward(inputs)


def _shape_error(shape):
    # The exception for a bad output_shape, of Chainer's type too: it fails
    # indexing a shorter one (IndexError), looping over a float length
    # (TypeError) or dividing by a zero length (ZeroDivisionError).
    if len(shape) < 2:
        return _chainer_errors.IndexValueError
    if len(shape) > 2 or any(isinstance(n, (bool, numpy.bool_)) for n in shape):
        return ValueError
    for n in shape:
        if not isinstance(n, (int, numpy.integer)):
            return _chainer_errors.TypedValueError
        if n <= 0:
            return _chainer_errors.ZeroError if n == 0 else ValueError
    return None


def resize_images(
    x: Variable | NdArray, output_shape, mode='bilinear', align_corners=True
) -> Variable:
    """Resizes images to the given shape.

    Each output pixel is interpolated from the input pixels around the
    point where it falls on the input grid. With ``align_corners=True`` the
    corner pixels of the input and output coincide (output pixel ``i``
    falls at ``i * (h_in - 1) / (h_out - 1)``); with ``False`` the images
    are scaled about their pixel centres (output pixel ``i`` falls at
    ``(i + 0.5) * h_in / h_out - 0.5``, clamped to the image). ``'bilinear'``
    mixes the two nearest pixels of each axis linearly (a NaN or infinite
    one reaches the output even where its weight is 0, as in Chainer);
    ``'nearest'`` takes pixel ``floor(i * h_in / h_out)`` whatever
    ``align_corners``, as Chainer does.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Images of shape
            ``(n, c, h, w)`` and a floating point dtype.
        output_shape (tuple of int): ``(h_out, w_out)``.
        mode (str): ``'bilinear'`` or ``'nearest'``.
        align_corners (bool): See above.

    Returns:
        Variable: Images of shape ``(n, c, h_out, w_out)``.

    Raises:
        ValueError: If ``mode`` is not one of the modes above (also an
            :class:`AssertionError`, as Chainer's), or ``output_shape`` is
            not two positive ints.
        ~chainerlite.utils.type_check.InvalidType: If ``x`` is not a 4-d
            array of floats.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[[[1., 3.], [2., 4.]]]], np.float32)
        >>> F.resize_images(x, (3, 3)).array
        array([[[[1. , 2. , 3. ],
                 [1.5, 2.5, 3.5],
                 [2. , 3. , 4. ]]]], dtype=float32)

    """
    if mode not in _MODES:
        raise _chainer_errors.AssertedValueError(
            'resize_images: mode must be one of {}, not {!r}'.format(_MODES, mode)
        )
    output_shape = tuple(output_shape)
    error = _shape_error(output_shape)
    if error is not None:
        raise error(
            'resize_images: output_shape must be two positive ints, not {!r}'.format(
                output_shape
            )
        )
    return ResizeImages(output_shape, mode, align_corners).apply((x,))[0]
