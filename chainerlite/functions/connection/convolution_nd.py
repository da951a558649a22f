"""N-dimensional convolution and the node of its filter gradient."""

from __future__ import annotations

import typing

from chainerlite import function_node
from chainerlite.functions.array import cast as cast_mod
from chainerlite.functions.connection import _conv_utils
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _checked_argument(name, doc):
    # a read-only property: the argument, once the node's params checked it
    def value(node):
        node.params.check()
        return getattr(node.params, name)

    return property(value, doc=doc)


class ConvolutionFamily(function_node.FunctionNode):
    """Base of the convolution and deconvolution nodes.

    Each holds ``ndim`` and its ``params``
    (:class:`~chainerlite.functions.connection._conv_utils.ConvParams`) and
    builds the nodes of its gradients with :meth:`convolution` and
    :meth:`deconvolution`, which the 2-D classes override to stay 2-D.
    The N-d nodes take a bias of any float dtype, as Chainer 7.8.1's do
    (added in the output's dtype, its gradient in its own); the 2-D ones
    set ``bias_of_x_dtype`` and want the dtype of ``x``, as Chainer's.
    """

    bias_of_x_dtype = False

    # Chainer's attributes of the node: the arguments, as checked
    stride = _checked_argument('stride', 'Strides, one per axis.')
    pad = _checked_argument('pad', 'Paddings, one per axis.')
    dilate = _checked_argument('dilate', 'Dilations, one per axis.')
    groups = _checked_argument('groups', 'Number of channel groups.')
    reads_channels_with_ranks = False
    # what a convolution's type check raises on the channels besides
    # InvalidType (None: InvalidType only)
    channels_error: type[Exception] | None = ValueError
    # whether the dilation is checked when the node is made (Chainer 7.8.1's
    # 2-D nodes) or after the type check
    dilate_when_made = False

    def check_bias_type(self, b_type, x_type, channels):
        """Checks the bias: ``channels`` long, of a float dtype (that of
        ``x`` where ``bias_of_x_dtype``)."""
        if self.bias_of_x_dtype:
            _conv_utils.check_bias(b_type, x_type, channels)
        else:
            type_check.expect(
                b_type.dtype.kind == 'f', b_type.ndim == 1, b_type.shape[0] == channels
            )

    def bias_input(self, inputs, dtype):
        """The bias of ``inputs`` in ``dtype`` (the output's), or None."""
        return inputs[2].astype(dtype, copy=False) if len(inputs) == 3 else None

    def convolution(self, cover_all):
        """Convolution node with the parameters of this node."""
        return ConvolutionND(self.ndim, cover_all=cover_all, **self.params.kwargs())

    def deconvolution(self, outsize):
        """Deconvolution node with the parameters of this node."""
        # imported here: deconvolution_nd subclasses this module's classes
        from chainerlite.functions.connection import deconvolution_nd

        return deconvolution_nd.DeconvolutionND(
            self.ndim, outsize=outsize, **self.params.kwargs()
        )

    def bias_grad(self, gy):
        """Gradient of the bias: ``gy`` summed over all but the channels,
        in the bias's dtype."""
        gb = sum_mod.sum(gy, axis=(0,) + tuple(range(2, self.ndim + 2)))
        dtype = self.inputs[2].dtype
        return gb if gb.dtype == dtype else cast_mod.cast(gb, dtype)

    def grad_w(self, w_shape, w_dtype):
        """The node of the filters' gradient (:class:`ConvolutionNDGradW`)."""
        return ConvolutionNDGradW(self, w_shape, w_dtype)


class ConvolutionND(ConvolutionFamily):
    """N-dimensional convolution ``y = W * x + b``.

    Args:
        ndim (int): Number of spatial axes.
        stride, pad, cover_all, dilate, groups: As in
            :func:`convolution_nd`; ``cover_all`` may also be a tuple giving
            its value for each axis.

    """

    function_name = 'convolution_nd'

    def __init__(self, ndim, stride=1, pad=0, cover_all=False, dilate=1, groups=1):
        self.ndim = ndim
        self._cover_all = cover_all
        self.params = _conv_utils.ConvParams(
            stride,
            pad,
            cover_all,
            dilate,
            groups,
            self.function_name,
            ndim,
            self.dilate_when_made,
        )

    @property
    def cover_all(self):
        """The ``cover_all`` given: one value, or one per axis where the
        axes' differ (Chainer's attribute)."""
        values = self.params.cover_all
        if not values:  # no spatial axis: the value given
            return self._cover_all
        return values[0] if len(set(values)) == 1 else values

    def check_type_forward(self, in_types):
        x_type, w_type, b_type = _conv_utils.check_inputs(in_types)
        if self.reads_channels_with_ranks:
            with type_check.invalid_as(IndexError):
                type_check.expect(x_type.ndim >= 2, w_type.ndim >= 2)
        type_check.expect(x_type.ndim == self.ndim + 2, w_type.ndim == self.ndim + 2)
        if b_type is not None:
            self.check_bias_type(b_type, x_type, w_type.shape[0])
        # the arguments after the ranks and the bias, as Chainer 7.8.1
        # checks them only in its forward
        self.params.check()
        groups = self.params.groups
        # after the ranks, so that an input of too few axes fails them
        # (InvalidType, as in Chainer) before shape[1] is read; Chainer's
        # N-d node does not check the channels, its forward fails on them
        # with a ValueError
        channels = (
            x_type.shape[1] == w_type.shape[1] * groups,
            w_type.shape[0] % groups == 0,
        )
        if self.channels_error is None:
            type_check.expect(*channels)
        else:
            with type_check.invalid_as(self.channels_error):
                type_check.expect(*channels)

    def forward(self, inputs):
        self.params.check()  # where the type check is off
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        b = self.bias_input(inputs, x.dtype)
        return (_conv_utils.convolve(x, W, self.params, b),)

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        (gy,) = grad_outputs
        grads = []
        if 0 in indexes:
            grads.append(self.deconvolution(x.shape[2:]).apply((gy, W))[0])
        if 1 in indexes:
            grads.append(self.grad_w(W.shape, W.dtype).apply((x, gy))[0])
        if 2 in indexes:
            grads.append(self.bias_grad(gy))
        return tuple(grads)


class ConvolutionNDGradW(function_node.FunctionNode):
    """Gradient of an N-d convolution with respect to its filters.

    Args:
        convnd (ConvolutionFamily): The node whose parameters (after its
            forward) define the convolution, and which builds the nodes of
            the gradients of this one.
        w_shape (tuple of int): Shape of the filters; None: that of the
            node's filters input (Chainer's constructor takes the node
            alone).
        w_dtype (numpy.dtype): Dtype of the filters; None: as ``w_shape``.

    """

    def __init__(self, convnd, w_shape=None, w_dtype=None):
        self.conv = convnd
        if w_shape is None or w_dtype is None:
            w_node = convnd.inputs[1]
            w_shape = w_node.shape if w_shape is None else w_shape
            w_dtype = w_node.dtype if w_dtype is None else w_dtype
        self.ksize = w_shape[2:]
        self.w_dtype = w_dtype

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        gW = _conv_utils.convolve_grad_weight(x, gy, self.ksize, self.conv.params)
        return (gW.astype(self.w_dtype, copy=False),)

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        (ggW,) = grad_outputs
        grads = []
        if 0 in indexes:
            grads.append(self.conv.deconvolution(x.shape[2:]).apply((gy, ggW))[0])
        if 1 in indexes:
            grads.append(
                self.conv.convolution(self.conv.params.cover_all).apply((x, ggW))[0]
            )
        return tuple(grads)


def convolution_nd(
    x: Variable | NdArray,
    W: Variable | NdArray,
    b: Variable | NdArray | None = None,
    stride=1,
    pad=0,
    cover_all=False,
    dilate=1,
    groups=1,
) -> Variable:
    """N-dimensional convolution function.

    The N-d generalisation of :func:`convolution_2d`: it correlates the
    filters ``W`` with the patches of the input ``x`` and adds the bias
    ``b``. Along each spatial axis, with ``d`` the input length, ``k`` the
    filter length, ``s`` the stride, ``p`` the padding and ``r`` the
    dilation, the output length is

    .. math::
        (d + 2p - k - (k - 1)(r - 1)) / s + 1

    rounded down, or rounded up when ``cover_all`` is ``True``.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, c_I, d_1, ..., d_N)``.
        W (Variable or numpy.ndarray or cupy.ndarray): Filters of shape
            ``(c_O, c_I / groups, k_1, ..., k_N)``.
        b (Variable or numpy.ndarray or cupy.ndarray): Bias of shape
            ``(c_O,)`` of any float dtype (added in the dtype of ``x``), or
            ``None``.
        stride (int or tuple of ints): Strides; ``s`` means ``(s,) * N``.
        pad (int or tuple of ints): Zero padding on each side.
        cover_all (bool): Use all input elements (see above).
        dilate (int or tuple of ints): Dilation of the filters.
        groups (int): Number of groups the channels are split into.

    Returns:
        Variable: Output of shape ``(n, c_O, out_1, ..., out_N)`` and the
        dtype of ``x``.

    Raises:
        RuntimeError: If an output length is not positive.
        ValueError: If ``stride`` or ``dilate`` is not a positive int (or
            ``N`` of them), ``pad`` is not a non-negative one, or ``groups``
            is not a positive int.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(6, dtype=np.float32).reshape(1, 1, 6)
        >>> W = np.ones((1, 1, 2), np.float32)
        >>> F.convolution_nd(x, W, stride=2).array
        array([[[1., 5., 9.]]], dtype=float32)

    """
    func = ConvolutionND(len(x.shape[2:]), stride, pad, cover_all, dilate, groups)
    inputs = (x, W) if b is None else (x, W, b)
    return func.apply(inputs)[0]


def check_spatial_ndim(x, ndim, name):
    """Raises ``ValueError`` unless ``x`` has ``ndim`` spatial axes.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): An input of shape
            ``(n, c, ...)``.
        ndim (int): The number of spatial axes wanted.
        name (str): The function that takes ``x``, for the message.

    """
    if len(x.shape) != ndim + 2:
        raise ValueError(
            '{}: the input x must have {} spatial axes (shape (n, c, ...) '
            'of {} dimensions), but its shape is {}'.format(
                name, ndim, ndim + 2, tuple(x.shape)
            )
        )


def convolution_1d(
    x: Variable | NdArray,
    W: Variable | NdArray,
    b: Variable | NdArray | None = None,
    stride=1,
    pad=0,
    cover_all=False,
    dilate=1,
    groups=1,
) -> Variable:
    """1-dimensional convolution: :func:`convolution_nd` of 3-d inputs.

    Raises:
        ValueError: If ``x`` is not of shape ``(n, c, d)``.

    """
    check_spatial_ndim(x, 1, 'convolution_1d')
    return convolution_nd(x, W, b, stride, pad, cover_all, dilate, groups)


def convolution_3d(
    x: Variable | NdArray,
    W: Variable | NdArray,
    b: Variable | NdArray | None = None,
    stride=1,
    pad=0,
    cover_all=False,
    dilate=1,
    groups=1,
) -> Variable:
    """3-dimensional convolution: :func:`convolution_nd` of 5-d inputs.

    Raises:
        ValueError: If ``x`` is not of shape ``(n, c, d_1, d_2, d_3)``.

    """
    check_spatial_ndim(x, 3, 'convolution_3d')
    return convolution_nd(x, W, b, stride, pad, cover_all, dilate, groups)
