"""Two-dimensional local convolution: unshared filters per output pixel."""

from __future__ import annotations

import typing

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.array import cast
from chainerlite.functions.array import im2col
from chainerlite.functions.array import reshape
from chainerlite.functions.connection import _conv_args
from chainerlite.functions.connection import _conv_utils
from chainerlite.functions.math import einsum
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import _windows
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _as_dtype(x, dtype):
    return x if x.dtype == dtype else cast.cast(x, dtype)


class LocalConvolution2DFunction(function_node.FunctionNode):
    """Local convolution: a convolution whose filter changes with the
    output position.

    Args:
        stride (int or pair of ints): Strides ``(sy, sx)``.

    """

    def __init__(self, stride=1):
        self.sy, self.sx = _conv_args.int_pair(stride, 'stride', 'local_convolution_2d')

    def check_type_forward(self, in_types):
        x_type, w_type, b_type = _conv_utils.check_inputs(in_types)
        type_check.expect(
            x_type.ndim == 4, w_type.ndim == 6, x_type.shape[1] == w_type.shape[3]
        )
        h, w = type_check.eval(x_type.shape[2:])
        kh, kw = type_check.eval(w_type.shape[4:])
        out_h = _windows.get_conv_outsize(h, kh, self.sy, 0)
        out_w = _windows.get_conv_outsize(w, kw, self.sx, 0)
        type_check.expect(
            w_type.shape[1] == type_check.make_variable(out_h, 'out_h'),
            w_type.shape[2] == type_check.make_variable(out_w, 'out_w'),
        )
        if b_type is not None:
            _conv_utils.check_bias(
                b_type, x_type, w_type.shape[0], w_type.shape[1], w_type.shape[2]
            )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        xp = backend.get_array_module(x)
        col = _windows.im2col(x, W.shape[4:], (self.sy, self.sx), (0, 0))
        # col: (n, c, kh, kw, out_h, out_w); W: (c_O, out_h, out_w, c, kh, kw)
        y = xp.einsum('ncjipq,opqcji->nopq', col, W, optimize=True)
        if len(inputs) == 3:
            y = y + inputs[2]
        return (y.astype(x.dtype, copy=False),)

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        (gy,) = grad_outputs
        c_out, out_h, out_w, c_in, kh, kw = W.shape
        W_mat = reshape.reshape(W, (c_out, out_h, out_w, c_in * kh * kw))
        grads = []
        if 0 in indexes:
            # in the wider of the two dtypes, as Chainer's, then x's
            dtype = numpy.result_type(gy.dtype, W.dtype)
            gcol = einsum.einsum(
                'nopq,opqk->nkpq', _as_dtype(gy, dtype), _as_dtype(W_mat, dtype)
            )
            gx = im2col.Im2ColGrad(
                (kh, kw), (self.sy, self.sx), 0, False, 1, x.shape
            ).apply((gcol,))[0]
            grads.append(_as_dtype(gx, x.dtype))
        if 1 in indexes:
            xcol = im2col.im2col(x, (kh, kw), (self.sy, self.sx))
            gW = einsum.einsum('nopq,nkpq->opqk', gy, xcol)
            grads.append(_as_dtype(reshape.reshape(gW, W.shape), W.dtype))
        if 2 in indexes:
            grads.append(sum_mod.sum(gy, axis=0))
        return tuple(grads)


def local_convolution_2d(
    x: Variable | NdArray,
    W: Variable | NdArray,
    b: Variable | NdArray | None = None,
    stride=1,
) -> Variable:
    """Two-dimensional local convolution function.

    Like :func:`convolution_2d` without padding, but each output position
    ``(p, q)`` has its own filters: with ``(s_Y, s_X)`` the strides,

    .. math::
        y_{n,o,p,q} = \\sum_{c,j,i} W_{o,p,q,c,j,i}\\,
            x_{n,c,p s_Y + j, q s_X + i} + b_{o,p,q}.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, c_I, h, w)``.
        W (Variable or numpy.ndarray or cupy.ndarray): Filters of shape
            ``(c_O, out_h, out_w, c_I, kh, kw)``, where ``out_h`` and
            ``out_w`` are the output size of a convolution of the input by
            a ``kh x kw`` filter with these strides and no padding.
        b (Variable or numpy.ndarray or cupy.ndarray): Bias of shape
            ``(c_O, out_h, out_w)`` and the dtype of ``x``, or ``None``.
        stride (int or pair of ints): Strides ``(s_Y, s_X)``.

    Returns:
        Variable: Output of shape ``(n, c_O, out_h, out_w)`` and the dtype
        of ``x``.

    Raises:
        ValueError: If ``stride`` is not a positive int (or a pair of
            them).

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(4, dtype=np.float32).reshape(1, 1, 1, 4)
        >>> W = np.array([1, 10, 100], np.float32).reshape(1, 1, 3, 1, 1, 1)
        >>> W = np.broadcast_to(W, (1, 1, 3, 1, 1, 2))
        >>> F.local_convolution_2d(x, W).array
        array([[[[  1.,  30., 500.]]]], dtype=float32)

    """
    func = LocalConvolution2DFunction(stride)
    inputs = (x, W) if b is None else (x, W, b)
    return func.apply(inputs)[0]
