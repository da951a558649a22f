"""Rearrangement of channels into spatial blocks."""

from __future__ import annotations

import typing

from chainerlite import function_node
from chainerlite.functions.array import space2depth
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Depth2Space(function_node.FunctionNode):
    """Rearrangement of channels into ``r x r`` spatial blocks."""

    def __init__(self, r):
        self.r = r

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('X',))
        (x_type,) = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim == 4)
        self.r = space2depth.block_size(self.r, 'depth2space')
        # Chainer 7.8.1 fails in its reshape here: a ValueError.
        with type_check.invalid_as(ValueError):
            type_check.expect(x_type.shape[1] % (self.r * self.r) == 0)

    def forward(self, inputs):
        (X,) = inputs
        r = self.r
        b, c, h, w = X.shape
        c //= r * r
        X = X.reshape(b, r, r, c, h, w)
        X = X.transpose(0, 3, 4, 1, 5, 2)
        return (X.reshape(b, c, h * r, w * r),)

    def backward(self, indexes, grad_outputs):
        return (space2depth.space2depth(grad_outputs[0], self.r),)


def depth2space(X: Variable | NdArray, r) -> Variable:
    """Rearranges channels of an image batch into spatial blocks.

    Every group of ``r * r`` channels becomes one channel ``r`` times larger
    in each spatial direction: output channel ``c`` at ``(y * r + i,
    x * r + j)`` holds input channel ``(i * r + j) * C + c`` at ``(y, x)``,
    where ``C`` is the number of output channels. This is the inverse of
    :func:`space2depth`.

    Args:
        X (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype and shape ``(B, r * r * C, H, W)``.
        r (int): The block size.

    Returns:
        Variable: Output variable of shape ``(B, C, H * r, W * r)``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> X = np.arange(24, dtype=np.float32).reshape(1, 4, 2, 3)
        >>> F.depth2space(X, 2).array
        array([[[[ 0.,  6.,  1.,  7.,  2.,  8.],
                 [12., 18., 13., 19., 14., 20.],
                 [ 3.,  9.,  4., 10.,  5., 11.],
                 [15., 21., 16., 22., 17., 23.]]]], dtype=float32)

    """
    return Depth2Space(r).apply((X,))[0]
