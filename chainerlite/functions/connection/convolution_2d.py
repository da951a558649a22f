"""Two-dimensional convolution."""

from __future__ import annotations

import typing

import numpy

from chainerlite.functions import _axis_names
from chainerlite.functions.connection import convolution_nd

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Nodes2D:
    """Mixin of the 2-D convolution nodes: their gradients stay 2-D nodes,
    and their bias has the dtype of ``x`` (Chainer 7.8.1's 2-D nodes refuse
    another, its N-d ones take any float dtype)."""

    bias_of_x_dtype = True
    # Chainer 7.8.1's 2-D convolution checks x.shape[1] and W.shape[1] with
    # the ranks: fewer than 2 axes is an IndexError there
    reads_channels_with_ranks = True
    # and in its type check: an InvalidType only
    channels_error: type[Exception] | None = None
    # and refuses a dilation below 1 when it makes its node
    dilate_when_made = True

    # Chainer's attributes of the 2-D nodes
    sy, sx = _axis_names.per_axis(lambda node: node.stride, 'sy', 'sx')
    ph, pw = _axis_names.per_axis(lambda node: node.pad, 'ph', 'pw')
    dy, dx = _axis_names.per_axis(lambda node: node.dilate, 'dy', 'dx')

    def convolution(self, cover_all):
        return Convolution2DFunction(cover_all=cover_all, **self.params.kwargs())

    def grad_w(self, w_shape, w_dtype):
        return Convolution2DGradW(self, w_shape, w_dtype, None)

    def deconvolution(self, outsize):
        # imported here: deconvolution_2d subclasses this module's classes
        from chainerlite.functions.connection import deconvolution_2d

        return deconvolution_2d.Deconvolution2DFunction(
            outsize=outsize, **self.params.kwargs()
        )


class Convolution2DFunction(Nodes2D, convolution_nd.ConvolutionND):
    """Two-dimensional convolution ``y = W * x + b``.

    The arguments are those of :func:`convolution_2d`; ``cover_all`` may
    also be a pair giving its value for each axis.
    """

    function_name = 'convolution_2d'

    def __init__(
        self, stride=1, pad=0, cover_all=False, dilate=1, groups=1, cudnn_fast=False
    ):
        super().__init__(2, stride, pad, cover_all, dilate, groups)
        # cuDNN's fast (nondeterministic) algorithms: a GPU-only choice
        self.cudnn_fast = cudnn_fast

    def forward(self, inputs):
        if self.cudnn_fast and isinstance(inputs[0], numpy.ndarray):
            raise RuntimeError(
                "convolution_2d: 'cudnn_fast' needs cuDNN; it cannot be used on the CPU"
            )
        return super().forward(inputs)


class Convolution2DGradW(convolution_nd.ConvolutionNDGradW):
    """Gradient of a 2-D convolution with respect to its filters, by
    Chainer's name and constructor: ``conv2d`` is the convolution node
    (after its forward), ``w_layout`` Chainer's memory layout of the
    filters, kept (chainerlite has one layout, None)."""

    def __init__(self, conv2d, w_shape, w_dtype, w_layout):
        super().__init__(conv2d, w_shape, w_dtype)
        self.w_layout = w_layout


def convolution_2d(
    x: Variable | NdArray,
    W: Variable | NdArray,
    b: Variable | NdArray | None = None,
    stride=1,
    pad=0,
    cover_all=False,
    *,
    dilate=1,
    groups=1,
) -> Variable:
    """Two-dimensional convolution function.

    It computes correlations between the filters ``W`` and the patches of
    the input ``x``, and adds the bias ``b``. With ``n`` the batch size,
    ``c_I`` / ``c_O`` the input / output channels, ``(h_I, w_I)`` the input
    size, ``(h_K, w_K)`` the filter size, ``(s_Y, s_X)`` the strides,
    ``(h_P, w_P)`` the paddings and ``(d_Y, d_X)`` the dilations, the output
    size is

    .. math::
        h_O = (h_I + 2 h_P - h_K - (h_K - 1)(d_Y - 1)) / s_Y + 1

    (and likewise for the width), rounded down, or rounded up when
    ``cover_all`` is ``True``, in which case the last windows may run past
    the padded input so that every input pixel is used.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, c_I, h_I, w_I)``.
        W (Variable or numpy.ndarray or cupy.ndarray): Filters of shape
            ``(c_O, c_I / groups, h_K, w_K)``.
        b (Variable or numpy.ndarray or cupy.ndarray): Bias of shape
            ``(c_O,)`` and the dtype of ``x``, or ``None``.
        stride (int or pair of ints): Stride of filter applications;
            ``s`` means ``(s, s)``.
        pad (int or pair of ints): Zero padding on each side of the input.
        cover_all (bool): Use all input pixels (see above).
        dilate (int or pair of ints): Dilation of the filters (keyword
            only).
        groups (int): Number of groups the channels are split into; each
            output group sees only its input group (keyword only).

    Returns:
        Variable: Output of shape ``(n, c_O, h_O, w_O)`` and the dtype of
        ``x``.

    Raises:
        RuntimeError: If the output height or width is not positive.
        ValueError: If ``stride`` or ``dilate`` is not a positive int (or a
            pair of them), ``pad`` is not a non-negative one, or ``groups``
            is not a positive int.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> W = np.ones((1, 1, 2, 2), np.float32)
        >>> F.convolution_2d(x, W, stride=2).array
        array([[[[10., 18.],
                 [42., 50.]]]], dtype=float32)

    """
    func = Convolution2DFunction(stride, pad, cover_all, dilate, groups)
    inputs = (x, W) if b is None else (x, W, b)
    return func.apply(inputs)[0]
