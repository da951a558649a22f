"""Rearrangement of spatial blocks into channels."""

from __future__ import annotations

import operator
import typing

from chainerlite import function_node
from chainerlite.functions.array import depth2space
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Space2Depth(function_node.FunctionNode):
    """Rearrangement of ``r x r`` spatial blocks into channels."""

    def __init__(self, r):
        self.r = r

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('X',))
        (x_type,) = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim == 4)
        self.r = block_size(self.r, 'space2depth')
        # Chainer 7.8.1 fails in its reshape here: a ValueError.
        with type_check.invalid_as(ValueError):
            type_check.expect(
                x_type.shape[2] % self.r == 0, x_type.shape[3] % self.r == 0
            )

    def forward(self, inputs):
        (X,) = inputs
        r = self.r
        b, c, h, w = X.shape
        X = X.reshape(b, c, h // r, r, w // r, r)
        X = X.transpose(0, 3, 5, 1, 2, 4)
        return (X.reshape(b, r * r * c, h // r, w // r),)

    def backward(self, indexes, grad_outputs):
        return (depth2space.depth2space(grad_outputs[0], self.r),)


def block_size(r, where):
    """Returns the block size ``r`` as an int, checked after the input's
    dtype and rank, with the types Chainer 7.8.1's reshapes fail with:
    ``TypeError`` for a non-integer (a float too), ``ZeroDivisionError``
    for 0, ``ValueError`` for a negative one."""
    try:
        checked = operator.index(r)
    except TypeError:
        checked = None
    message = '{}: r must be a positive int, but {!r} is given'.format(where, r)
    if checked is None:
        raise TypeError(message)
    if checked == 0:
        raise ZeroDivisionError(message)
    if checked < 0:
        raise ValueError(message)
    return checked


def space2depth(X: Variable | NdArray, r) -> Variable:
    """Rearranges spatial blocks of an image batch into channels.

    Each ``r x r`` block of every channel becomes one pixel of ``r * r``
    channels: output channel ``(i * r + j) * C + c`` at ``(y, x)`` holds
    input channel ``c`` at ``(y * r + i, x * r + j)``. This is the inverse
    of :func:`depth2space`.

    Args:
        X (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype and shape ``(B, C, H, W)``, with ``H`` and ``W``
            multiples of ``r``.
        r (int): The block size.

    Returns:
        Variable: Output variable of shape ``(B, r * r * C, H / r, W / r)``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> X = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> y = F.space2depth(X, 2)
        >>> y.shape
        (1, 4, 2, 2)
        >>> y.array[0, :, 0, 0]
        array([0., 1., 4., 5.], dtype=float32)

    """
    return Space2Depth(r).apply((X,))[0]
