"""N-dimensional deconvolution (transposed convolution)."""

from __future__ import annotations

import typing

from chainerlite.functions.connection import _conv_args
from chainerlite.functions.connection import _conv_utils
from chainerlite.functions.connection import convolution_nd
from chainerlite.utils import _chainer_errors
from chainerlite.utils import _windows
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class DeconvolutionND(convolution_nd.ConvolutionFamily):
    """N-dimensional deconvolution, the transpose of a convolution.

    Args:
        ndim (int): Number of spatial axes.
        stride, pad, outsize, dilate, groups: As in
            :func:`deconvolution_nd`.

    """

    function_name = 'deconvolution_nd'

    @property
    def cover_all(self):
        """Whether the convolution of the output back to the input (the
        gradient of this node) needs ``cover_all`` along some axis, as
        Chainer's node keeps it: decided by forward, None before."""
        if self._input_indexes_to_retain is None:
            return None
        return any(self.params.cover_all)

    def __init__(self, ndim, stride=1, pad=0, outsize=None, dilate=1, groups=1):
        self.ndim = ndim
        # outsize after the lengths of stride and pad, as in Chainer 7.8.1:
        # not a sequence is its TypeError, another length its
        # AssertionError (or ValueError); their values are checked after
        # the type check, by ConvParams.check
        _conv_args.check_length(stride, ndim, 'stride', self.function_name)
        _conv_args.check_length(pad, ndim, 'pad', self.function_name)
        if outsize is not None and not hasattr(outsize, '__len__'):
            raise TypeError(
                '{}: outsize must be None or a tuple of {} ints, but {!r} is '
                'given'.format(self.function_name, ndim, outsize)
            )
        self.outs = (None,) * ndim if outsize is None else tuple(outsize)
        if len(self.outs) != ndim:
            raise _chainer_errors.LengthError(
                '{}: outsize must have {} values, but {!r} is given'.format(
                    self.function_name, ndim, outsize
                )
            )
        # cover_all is decided in forward, from the input and output sizes.
        self.params = _conv_utils.ConvParams(
            stride,
            pad,
            False,
            dilate,
            groups,
            self.function_name,
            ndim,
            self.dilate_when_made,
        )

    def check_type_forward(self, in_types):
        x_type, w_type, b_type = _conv_utils.check_inputs(in_types)
        p = self.params
        type_check.expect(
            x_type.ndim == self.ndim + 2,
            w_type.ndim == self.ndim + 2,
            x_type.shape[1] == w_type.shape[0],
        )
        # the arguments after the inputs, as Chainer 7.8.1 checks them only
        # in its forward
        p.check()
        type_check.expect(w_type.shape[0] % p.groups == 0)
        for axis, out in enumerate(self.outs):
            if out is None:
                continue
            # The input must be what a convolution of the output gives, with
            # or without cover_all.
            args = (out, w_type.shape[axis + 2], p.stride[axis], p.pad[axis])
            d = p.dilate[axis]
            lower = _windows.get_conv_outsize(*args, d=d)
            upper = _windows.get_conv_outsize(*args, cover_all=True, d=d)
            in_size = x_type.shape[axis + 2]
            type_check.expect(lower <= in_size, in_size <= upper)
        if b_type is not None:
            self.check_bias_type(b_type, x_type, w_type.shape[1] * p.groups)

    def estimated_outsize_error(self, axis):
        """The error raised when the computed output length of ``axis`` is
        not positive."""
        return AssertionError(
            '{}: the output length of axis {} must be positive; give '
            'outsize or a smaller pad'.format(self.function_name, axis)
        )

    def forward(self, inputs):
        self.params.check()  # where the type check is off
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        p = self.params
        ksize, dims = W.shape[2:], x.shape[2:]
        outs = list(self.outs)
        for axis, out in enumerate(outs):
            if out is None:
                out = outs[axis] = _windows.get_deconv_outsize(
                    dims[axis],
                    ksize[axis],
                    p.stride[axis],
                    p.pad[axis],
                    d=p.dilate[axis],
                )
                if out <= 0:
                    raise self.estimated_outsize_error(axis)
        self.outs = tuple(outs)
        # Whether the convolution of the output back to the input (the
        # gradient of this function) needs cover_all, for each axis.
        p.cover_all = tuple(
            size != _windows.get_conv_outsize(out, k, s, pad, d=d)
            for size, out, k, s, pad, d in zip(
                dims, self.outs, ksize, p.stride, p.pad, p.dilate
            )
        )
        y = _conv_utils.convolve_transpose(x, W, self.outs, p)
        if len(inputs) == 3:
            y = _conv_utils.add_bias(y, self.bias_input(inputs, y.dtype))
        return (y,)

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        (gy,) = grad_outputs
        grads = []
        if 0 in indexes:
            grads.append(self.convolution(self.params.cover_all).apply((gy, W))[0])
        if 1 in indexes:
            grads.append(self.grad_w(W.shape, W.dtype).apply((gy, x))[0])
        if 2 in indexes:
            grads.append(self.bias_grad(gy))
        return tuple(grads)


def deconvolution_nd(
    x: Variable | NdArray,
    W: Variable | NdArray,
    b: Variable | NdArray | None = None,
    stride=1,
    pad=0,
    outsize=None,
    dilate=1,
    groups=1,
) -> Variable:
    """N-dimensional deconvolution function.

    The N-d generalisation of :func:`deconvolution_2d`, the transpose of
    :func:`convolution_nd`: each input element scatters a copy of the
    filter, scaled by its value, onto the output, and the bias is added.
    Along each spatial axis, with ``d`` the input length, ``k`` the filter
    length, ``s`` the stride, ``p`` the padding and ``r`` the dilation, the
    output length is by default

    .. math::
        s (d - 1) + (k - 1) r + 1 - 2 p

    ``outsize`` may instead name any lengths whose convolution, with or
    without ``cover_all``, gives the input lengths.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, c_I, d_1, ..., d_N)``.
        W (Variable or numpy.ndarray or cupy.ndarray): Filters of shape
            ``(c_I, c_O / groups, k_1, ..., k_N)``.
        b (Variable or numpy.ndarray or cupy.ndarray): Bias of shape
            ``(c_O,)`` of any float dtype (added in the dtype of ``x``), or
            ``None``.
        stride (int or tuple of ints): Strides.
        pad (int or tuple of ints): Padding removed from each side of the
            output.
        outsize (None or tuple of ints): Output lengths; ``None`` computes
            them as above.
        dilate (int or tuple of ints): Dilation of the filters.
        groups (int): Number of channel groups.

    Returns:
        Variable: Output of shape ``(n, c_O, out_1, ..., out_N)`` and the
        dtype of ``x``.

    Raises:
        AssertionError: If a computed output length is not positive (as
            Chainer raises).
        ValueError: If ``stride`` or ``dilate`` is not a positive int (or
            ``N`` of them), ``pad`` is not a non-negative one, or ``groups``
            is not a positive int.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[[1, 2, 3]]], np.float32)
        >>> W = np.ones((1, 1, 2), np.float32)
        >>> F.deconvolution_nd(x, W, stride=2).array
        array([[[1., 1., 2., 2., 3., 3.]]], dtype=float32)

    """
    func = DeconvolutionND(len(x.shape[2:]), stride, pad, outsize, dilate, groups)
    inputs = (x, W) if b is None else (x, W, b)
    return func.apply(inputs)[0]


def deconvolution_1d(
    x: Variable | NdArray,
    W: Variable | NdArray,
    b: Variable | NdArray | None = None,
    stride=1,
    pad=0,
    outsize=None,
    dilate=1,
    groups=1,
) -> Variable:
    """1-dimensional deconvolution: :func:`deconvolution_nd` of 3-d inputs.

    Raises:
        ValueError: If ``x`` is not of shape ``(n, c, d)``.

    """
    convolution_nd.check_spatial_ndim(x, 1, 'deconvolution_1d')
    return deconvolution_nd(x, W, b, stride, pad, outsize, dilate, groups)


def deconvolution_3d(
    x: Variable | NdArray,
    W: Variable | NdArray,
    b: Variable | NdArray | None = None,
    stride=1,
    pad=0,
    outsize=None,
    dilate=1,
    groups=1,
) -> Variable:
    """3-dimensional deconvolution: :func:`deconvolution_nd` of 5-d inputs.

    Raises:
        ValueError: If ``x`` is not of shape ``(n, c, d_1, d_2, d_3)``.

    """
    convolution_nd.check_spatial_ndim(x, 3, 'deconvolution_3d')
    return deconvolution_nd(x, W, b, stride, pad, outsize, dilate, groups)
