"""Extraction of image patches into columns (im2col)."""

from __future__ import annotations

import typing

from chainerlite import function_node
from chainerlite.functions import _axis_names
from chainerlite.functions.connection import _conv_args
from chainerlite.utils import _windows
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Im2Col(_axis_names.Window2D, function_node.FunctionNode):
    """Extraction of image patches into columns."""

    dy, dx = _axis_names.per_axis(lambda node: node.dilate, 'dy', 'dx')

    def __init__(self, ksize, stride, pad, cover_all, dilate):
        self.ksize = _conv_args.int_pair(ksize, 'ksize', 'im2col')
        self.stride = _conv_args.int_pair(stride, 'stride', 'im2col')
        self.pad = _conv_args.int_pair(pad, 'pad', 'im2col', minimum=0)
        self.dilate = _conv_args.int_pair(dilate, 'dilate', 'im2col')
        self.cover_all = cover_all

    def window_params(self):
        """The arguments of a node with the same windows."""
        return self.ksize, self.stride, self.pad, self.cover_all, self.dilate

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim == 4)
        out_h, out_w = _windows.out_sizes(
            (type_check.eval(x_type.shape[2]), type_check.eval(x_type.shape[3])),
            self.ksize,
            self.stride,
            self.pad,
            self.cover_all,
            self.dilate,
        )
        # Chainer's forward asserts these: the family member that is also
        # an AssertionError
        with type_check.invalid_as(AssertionError):
            type_check.expect(
                type_check.make_variable(out_h, 'out_h') > 0,
                type_check.make_variable(out_w, 'out_w') > 0,
            )

    def forward(self, inputs):
        (x,) = inputs
        self._in_shape = x.shape
        col = _windows.im2col(
            x,
            self.ksize,
            self.stride,
            self.pad,
            cover_all=self.cover_all,
            dilate=self.dilate,
        )
        n, c, kh, kw, out_h, out_w = col.shape
        return (col.reshape(n, c * kh * kw, out_h, out_w),)

    def backward(self, indexes, grad_outputs):
        return Im2ColGrad(*self.window_params(), self._in_shape).apply(grad_outputs)


class Im2ColGrad(function_node.FunctionNode):
    """Gradient of im2col: sums columns back into the image (col2im).

    Args:
        ksize, stride, pad, cover_all, dilate: As in :func:`im2col`.
        in_shape (tuple of int): Shape ``(n, c, h, w)`` of the image.

    """

    def __init__(self, ksize, stride, pad, cover_all, dilate, in_shape):
        self.in_shape = in_shape
        self.im2col = Im2Col(ksize, stride, pad, cover_all, dilate)

    def forward(self, inputs):
        (gy,) = inputs
        f = self.im2col
        n, c, h, w = self.in_shape
        col = gy.reshape((n, c) + f.ksize + gy.shape[2:])
        return (_windows.col2im(col, f.stride, f.pad, (h, w), f.dilate),)

    def backward(self, indexes, grad_outputs):
        return Im2Col(*self.im2col.window_params()).apply(grad_outputs)


def im2col(
    x: Variable | NdArray, ksize, stride=1, pad=0, cover_all=False, dilate=1
) -> Variable:
    """Extracts the patches a convolution kernel sees into columns.

    For each output position ``(y, x)`` and kernel tap ``(j, i)``, channel
    ``c`` of the patch is
    ``x[n, c, y * sy + j * dy - ph, x * sx + i * dx - pw]`` (zero outside
    the image); the output stacks channel and taps as the axis
    ``c * kh * kw + j * kw + i``.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input image batch of
            a floating point dtype and shape ``(n, c, h, w)``.
        ksize (int or pair of ints): Kernel size ``(kh, kw)``.
        stride (int or pair of ints): Stride ``(sy, sx)``.
        pad (int or pair of ints): Zero padding ``(ph, pw)`` on both sides.
        cover_all (bool): If ``True``, the output covers the whole image even
            where the stride leaves a border, by padding the end by up to
            ``stride - 1`` more zeros.
        dilate (int or pair of ints): Dilation ``(dy, dx)`` of the kernel.

    Returns:
        Variable: Output variable of shape ``(n, c * kh * kw, out_h,
        out_w)``, where ``out_h = (h + 2 * ph - (kh - 1) * dy - 1) // sy + 1``
        (plus ``sy - 1`` in the numerator with ``cover_all``), and likewise
        ``out_w``.

    Raises:
        ValueError: If ``ksize``, ``stride`` or ``dilate`` is not a positive
            int (or a pair of them), or ``pad`` is not a non-negative one.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> y = F.im2col(x, 2, stride=2)
        >>> y.shape
        (1, 4, 2, 2)
        >>> y.array[0, :, 0, 1]
        array([2., 3., 6., 7.], dtype=float32)

    """
    return Im2Col(ksize, stride, pad, cover_all, dilate).apply((x,))[0]
