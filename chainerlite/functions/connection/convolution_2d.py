"""Two-dimensional convolution and the node of its filter gradient."""

from chainerlite import function_node
from chainerlite.functions.connection import _conv_utils
from chainerlite.functions.connection import deconvolution_2d
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import type_check


class Convolution2DFunction(function_node.FunctionNode):
    """Two-dimensional convolution ``y = W * x + b``.

    The arguments are those of :func:`convolution_2d`; ``cover_all`` may
    also be a pair giving its value for each axis.
    """

    def __init__(self, stride=1, pad=0, cover_all=False, dilate=1, groups=1):
        self.params = _conv_utils.ConvParams(
            stride, pad, cover_all, dilate, groups, 'convolution_2d')

    def check_type_forward(self, in_types):
        n_in = in_types.size()
        type_check.expect(2 <= n_in, n_in <= 3)
        has_bias = type_check.eval(n_in) == 3
        type_check.argname(
            in_types, ('x', 'W', 'b') if has_bias else ('x', 'W'))
        x_type, w_type = in_types[:2]
        groups = self.params.groups
        type_check.expect(
            x_type.dtype.kind == 'f',
            w_type.dtype.kind == 'f',
            x_type.ndim == 4,
            w_type.ndim == 4,
            x_type.shape[1] == w_type.shape[1] * groups,
            w_type.shape[0] % groups == 0,
        )
        if has_bias:
            b_type = in_types[2]
            type_check.expect(
                b_type.dtype == x_type.dtype,
                b_type.ndim == 1,
                b_type.shape[0] == w_type.shape[0],
            )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        y = _conv_utils.convolve(x, W, self.params)
        if len(inputs) == 3:
            y += inputs[2].reshape(1, -1, 1, 1)
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        p = self.params
        grads = []
        if 0 in indexes:
            grads.append(deconvolution_2d.deconvolution_2d(
                gy, W, outsize=x.shape[2:], **p.kwargs()))
        if 1 in indexes:
            grads.append(Convolution2DGradW(p, W.shape, W.dtype).apply(
                (x, gy))[0])
        if 2 in indexes:
            grads.append(sum_mod.sum(gy, axis=(0, 2, 3)))
        return tuple(grads)


class Convolution2DGradW(function_node.FunctionNode):
    """Gradient of a 2-D convolution with respect to its filters.

    Args:
        params (~chainerlite.functions.connection._conv_utils.ConvParams):
            Parameters of the convolution.
        w_shape (tuple of int): Shape of the filters.
        w_dtype (numpy.dtype): Dtype of the filters.

    """

    def __init__(self, params, w_shape, w_dtype):
        self.params = params
        self.kh, self.kw = w_shape[2:]
        self.w_dtype = w_dtype

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        gW = _conv_utils.convolve_grad_weight(
            x, gy, self.kh, self.kw, self.params)
        return gW.astype(self.w_dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggW, = grad_outputs
        p = self.params
        grads = []
        if 0 in indexes:
            grads.append(deconvolution_2d.deconvolution_2d(
                gy, ggW, outsize=x.shape[2:], **p.kwargs()))
        if 1 in indexes:
            grads.append(Convolution2DFunction(
                cover_all=p.cover_all, **p.kwargs()).apply((x, ggW))[0])
        return tuple(grads)


def convolution_2d(x, W, b=None, stride=1, pad=0, cover_all=False, *,
                   dilate=1, groups=1):
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
