"""Resizing of images by bilinear or nearest-neighbour interpolation."""

from __future__ import annotations

import numpy
import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable

_MODES = ('bilinear', 'nearest')


def _source_coordinates(n_in, n_out, align_corners):
    # Where each output pixel centre falls on the input grid, in input
    # pixels: corners on corners, or pixel centres scaled about the middle.
    i = numpy.arange(n_out, dtype=numpy.float64)
    if align_corners:
        if n_out == 1:
            return numpy.zeros(1)
        return i * ((n_in - 1) / (n_out - 1))
    return (i + 0.5) * (n_in / n_out) - 0.5


def _interpolation_matrix(n_in, n_out, mode, align_corners):
    """The ``(n_out, n_in)`` matrix that resizes one axis."""
    src = _source_coordinates(n_in, n_out, align_corners)
    rows = numpy.arange(n_out)
    matrix = numpy.zeros((n_out, n_in))
    if mode == 'nearest':
        nearest = numpy.clip(numpy.floor(src + 0.5), 0, n_in - 1)
        matrix[rows, nearest.astype(numpy.intp)] = 1
        return matrix
    src = numpy.clip(src, 0, n_in - 1)
    lo = numpy.floor(src).astype(numpy.intp)
    hi = numpy.minimum(lo + 1, n_in - 1)
    weight = src - lo
    matrix[rows, lo] += 1 - weight
    matrix[rows, hi] += weight
    return matrix


class _ResizeAxes(function_node.FunctionNode):
    """``y[n, c] = rows @ x[n, c] @ cols.T``: a linear map of each image.

    Its backward is the same map with the transposed matrices.
    """

    def __init__(self, rows, cols):
        self.rows = rows
        self.cols = cols

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        rows = self.rows.astype(x.dtype, copy=False)
        cols = self.cols.astype(x.dtype, copy=False)
        return (xp.matmul(xp.matmul(rows, x), cols.T),)

    def backward(self, indexes, grad_outputs):
        return _ResizeAxes(self.rows.T, self.cols.T).apply(grad_outputs)


class ResizeImages(_ResizeAxes):
    """Resizing of a batch of images."""

    def __init__(self, output_shape, mode, align_corners):
        self.output_shape = output_shape
        self.mode = mode
        self.align_corners = align_corners

    @property
    def label(self):
        return 'resize_images'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim == 4)

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.rows, self.cols = (
            xp.asarray(
                _interpolation_matrix(n_in, n_out, self.mode, self.align_corners)
            )
            for n_in, n_out in zip(x.shape[2:], self.output_shape)
        )
        return super().forward(inputs)


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
    mixes the two nearest pixels of each axis linearly; ``'nearest'`` takes
    the nearest pixel (the upper one at a tie).

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Images of shape
            ``(n, c, h, w)`` and a floating point dtype.
        output_shape (tuple of int): ``(h_out, w_out)``.
        mode (str): ``'bilinear'`` or ``'nearest'``.
        align_corners (bool): See above.

    Returns:
        Variable: Images of shape ``(n, c, h_out, w_out)``.

    Raises:
        ValueError: If ``mode`` is not one of the modes above, or
            ``output_shape`` is not two positive ints.
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
        raise ValueError(
            'resize_images: mode must be one of {}, not {!r}'.format(_MODES, mode)
        )
    output_shape = tuple(output_shape)
    if len(output_shape) != 2 or not all(
        isinstance(n, (int, numpy.integer)) and n > 0 for n in output_shape
    ):
        raise ValueError(
            'resize_images: output_shape must be two positive ints, not {!r}'.format(
                output_shape
            )
        )
    return ResizeImages(output_shape, mode, align_corners).apply((x,))[0]
