"""Shift: each channel group moves by its own offset (a zero-FLOP

alternative to a spatial convolution)."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.connection import _conv_args
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _span(size, offset):
    # (output slice, input slice) of ``y[a] = x[a + offset]`` on one axis;
    # both empty when the offset moves everything out
    return (
        slice(max(0, -offset), max(0, min(size, size - offset))),
        slice(max(0, offset), max(0, min(size, size + offset))),
    )


class Shift(function_node.FunctionNode):
    """Shift of channel groups over the taps of a ``kh x kw`` window.

    The channels are split into ``kh * kw`` groups of ``c // (kh * kw)``
    channels, one per window tap in C order, except that the centre tap
    (no move) comes last and the last tap takes the centre's place, as in
    Chainer; the channels left over after the last group stay in place.
    The group of tap ``(i, j)`` moves so that its output at ``(y, x)`` is
    its input at ``(y - (i - kh // 2) * dy, x - (j - kw // 2) * dx)`` (zero
    outside the image).

    Args:
        ksize (int or pair of ints): Window size; both must be odd.
        dilate (int or pair of ints): Spacing of the taps.
        sign (int): ``1``, or ``-1`` for the opposite offsets (the
            transpose, which is the gradient).

    Raises:
        ValueError: If a window size is not a positive odd int or a
            dilation not a positive int.

    """

    def __init__(self, ksize=3, dilate=1, sign=1):
        self.kh, self.kw = _conv_args.int_pair(ksize, 'ksize', 'shift')
        if self.kh % 2 != 1 or self.kw % 2 != 1:
            raise ValueError(
                'shift: ksize must be odd, but {!r} is given'.format(ksize)
            )
        self.dy, self.dx = _conv_args.int_pair(dilate, 'dilate', 'shift')
        self.sign = sign

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        (x_type,) = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 4,
            x_type.shape[1] >= self.kh * self.kw,
        )

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        c, h, w = x.shape[1:]
        size = c // (self.kh * self.kw)
        y = xp.zeros_like(x)
        taps = list(range(self.kh * self.kw))
        centre = len(taps) // 2
        taps[centre], taps[-1] = taps[-1], taps[centre]
        for g, tap in enumerate(taps):
            i, j = divmod(tap, self.kw)
            rows_y, rows_x = _span(h, self.sign * (self.kh // 2 - i) * self.dy)
            cols_y, cols_x = _span(w, self.sign * (self.kw // 2 - j) * self.dx)
            chans = slice(g * size, (g + 1) * size)
            y[:, chans, rows_y, cols_y] = x[:, chans, rows_x, cols_x]
        rest = slice(self.kh * self.kw * size, c)
        y[:, rest] = x[:, rest]
        return (y,)

    def backward(self, indexes, grad_outputs):
        func = Shift((self.kh, self.kw), (self.dy, self.dx), -self.sign)
        return func.apply(grad_outputs)


def shift(x: Variable | NdArray, ksize=3, dilate=1) -> Variable:
    """Shift function.

    See `Shift: A Zero FLOP, Zero Parameter Alternative to Spatial
    Convolutions <https://arxiv.org/abs/1711.08141>`_. The channels are
    split into ``kh * kw`` equal groups, one per tap of a ``kh x kw``
    window centred on each pixel, and each group is moved by the offset of
    its tap (times ``dilate``), filling with zeros; the channels left over
    after the last group are not moved.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, c, h, w)`` with ``c >= kh * kw``.
        ksize (int or pair of ints): Window size ``(kh, kw)``, both odd.
        dilate (int or pair of ints): Spacing of the window taps.

    Returns:
        Variable: Output of the shape and dtype of ``x``.

    Raises:
        ValueError: If ``ksize`` is not a positive odd int (or a pair of
            them), or ``dilate`` not a positive int (or a pair of them).

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(1, 4, dtype=np.float32).reshape(1, 3, 1, 1)
        >>> x = np.broadcast_to(x, (1, 3, 1, 3)).copy()
        >>> F.shift(x, ksize=(1, 3)).array[0, :, 0]
        array([[1., 1., 0.],
               [0., 2., 2.],
               [3., 3., 3.]], dtype=float32)

    """
    return Shift(ksize, dilate).apply((x,))[0]
