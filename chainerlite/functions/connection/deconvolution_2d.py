"""Two-dimensional deconvolution (transposed convolution)."""

from chainerlite import function_node
from chainerlite.functions.connection import _conv_utils
from chainerlite.functions.connection import convolution_2d
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import type_check


class Deconvolution2DFunction(function_node.FunctionNode):
    """Two-dimensional deconvolution, the transpose of a convolution."""

    def __init__(self, stride=1, pad=0, outsize=None, dilate=1, groups=1):
        # cover_all is decided in forward, from the input and output sizes.
        self.params = _conv_utils.ConvParams(
            stride, pad, False, dilate, groups, 'deconvolution_2d')
        self.outh, self.outw = (None, None) if outsize is None else outsize

    def check_type_forward(self, in_types):
        n_in = in_types.size()
        type_check.expect(2 <= n_in, n_in <= 3)
        has_bias = type_check.eval(n_in) == 3
        type_check.argname(
            in_types, ('x', 'W', 'b') if has_bias else ('x', 'W'))
        x_type, w_type = in_types[:2]
        p = self.params
        type_check.expect(
            x_type.dtype.kind == 'f',
            w_type.dtype.kind == 'f',
            x_type.ndim == 4,
            w_type.ndim == 4,
            x_type.shape[1] == w_type.shape[0],
            w_type.shape[0] % p.groups == 0,
        )
        if self.outh is not None:
            self._check_outsize(x_type.shape[2], w_type.shape[2], self.outh,
                                p.sy, p.ph, p.dy)
        if self.outw is not None:
            self._check_outsize(x_type.shape[3], w_type.shape[3], self.outw,
                                p.sx, p.pw, p.dx)
        if has_bias:
            b_type = in_types[2]
            type_check.expect(
                b_type.dtype == x_type.dtype,
                b_type.ndim == 1,
                b_type.shape[0] == w_type.shape[1] * p.groups,
            )

    @staticmethod
    def _check_outsize(in_size, k, out_size, s, p, d):
        # The input must be what a convolution of out_size gives, with or
        # without cover_all.
        lower = _conv_utils.get_conv_outsize(out_size, k, s, p, d=d)
        upper = _conv_utils.get_conv_outsize(
            out_size, k, s, p, cover_all=True, d=d)
        type_check.expect(lower <= in_size, in_size <= upper)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        p = self.params
        kh, kw = W.shape[2:]
        in_h, in_w = x.shape[2:]
        if self.outh is None:
            self.outh = _conv_utils.get_deconv_outsize(
                in_h, kh, p.sy, p.ph, d=p.dy)
            if self.outh <= 0:
                raise RuntimeError('Height in the output must be positive.')
        if self.outw is None:
            self.outw = _conv_utils.get_deconv_outsize(
                in_w, kw, p.sx, p.pw, d=p.dx)
            if self.outw <= 0:
                raise RuntimeError('Width in the output must be positive.')
        # Whether the convolution of the output back to the input (the
        # gradient of this function) needs cover_all, for each axis.
        p.cover_all = (
            in_h != _conv_utils.get_conv_outsize(
                self.outh, kh, p.sy, p.ph, d=p.dy),
            in_w != _conv_utils.get_conv_outsize(
                self.outw, kw, p.sx, p.pw, d=p.dx))
        y = _conv_utils.convolve_transpose(x, W, self.outh, self.outw, p)
        if len(inputs) == 3:
            y += inputs[2].reshape(1, -1, 1, 1)
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        p = self.params
        grads = []
        if 0 in indexes:
            grads.append(convolution_2d.Convolution2DFunction(
                cover_all=p.cover_all, **p.kwargs()).apply((gy, W))[0])
        if 1 in indexes:
            grads.append(convolution_2d.Convolution2DGradW(
                p, W.shape, W.dtype).apply((gy, x))[0])
        if 2 in indexes:
            grads.append(sum_mod.sum(gy, axis=(0, 2, 3)))
        return tuple(grads)


def deconvolution_2d(x, W, b=None, stride=1, pad=0, outsize=None, *,
                     dilate=1, groups=1):
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
