"""Two-dimensional deconvolution (transposed convolution)."""

from __future__ import annotations

import typing

from chainerlite.functions import _axis_names
from chainerlite.functions.connection import convolution_2d
from chainerlite.functions.connection import deconvolution_nd

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Deconvolution2DFunction(
    _axis_names.Outsize2D, convolution_2d.Nodes2D, deconvolution_nd.DeconvolutionND
):
    """Two-dimensional deconvolution, the transpose of a convolution."""

    function_name = 'deconvolution_2d'

    def __init__(self, stride=1, pad=0, outsize=None, dilate=1, groups=1):
        super().__init__(2, stride, pad, outsize, dilate, groups)

    def estimated_outsize_error(self, axis):
        return RuntimeError(
            '{} in the output must be positive.'.format(('Height', 'Width')[axis])
        )


def deconvolution_2d(
    x: Variable | NdArray,
    W: Variable | NdArray,
    b: Variable | NdArray | None = None,
    stride=1,
    pad=0,
    outsize=None,
    *,
    dilate=1,
    groups=1,
) -> Variable:
    """Two-dimensional deconvolution function.

    This is the transpose of :func:`convolution_2d` (its gradient with
    respect to the input): each input pixel scatters a copy of the filter,
    scaled by its value, onto the output, and the bias is added. With
    ``h_I`` the input height, ``h_K`` the filter height, ``s_Y`` the stride,
    ``h_P`` the padding and ``d_Y`` the dilation, the output height is by
    default

    .. math::
        h_O = s_Y (h_I - 1) + (h_K - 1) d_Y + 1 - 2 h_P

    (and likewise for the width). ``outsize`` may instead name any size
    whose convolution, with or without ``cover_all``, gives the input size.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, c_I, h_I, w_I)``.
        W (Variable or numpy.ndarray or cupy.ndarray): Filters of shape
            ``(c_I, c_O / groups, h_K, w_K)``.
        b (Variable or numpy.ndarray or cupy.ndarray): Bias of shape
            ``(c_O,)`` and the dtype of ``x``, or ``None``.
        stride (int or pair of ints): Stride of filter applications.
        pad (int or pair of ints): Padding removed from each side of the
            output.
        outsize (None or pair of ints): Output height and width; ``None``
            computes them as above.
        dilate (int or pair of ints): Dilation of the filters (keyword
            only).
        groups (int): Number of channel groups (keyword only).

    Returns:
        Variable: Output of shape ``(n, c_O, h_O, w_O)`` and the dtype of
        ``x``.

    Raises:
        RuntimeError: If the computed output height or width is not
            positive.
        ValueError: If ``stride`` or ``dilate`` is not a positive int (or a
            pair of them), ``pad`` is not a non-negative one, or ``groups``
            is not a positive int.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[[[1, 2], [3, 4]]]], np.float32)
        >>> W = np.ones((1, 1, 2, 2), np.float32)
        >>> F.deconvolution_2d(x, W, stride=2).array[0, 0]
        array([[1., 1., 2., 2.],
               [1., 1., 2., 2.],
               [3., 3., 4., 4.],
               [3., 3., 4., 4.]], dtype=float32)

    """
    func = Deconvolution2DFunction(stride, pad, outsize, dilate, groups)
    inputs = (x, W) if b is None else (x, W, b)
    return func.apply(inputs)[0]
