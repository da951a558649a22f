"""Maxout activation."""

from __future__ import annotations

import typing

from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import reshape
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Maxout(function_node.FunctionNode):
    """Maximum over groups of ``pool_size`` consecutive channels."""

    def __init__(self, pool_size, axis=1):
        self.pool_size = pool_size
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        # Chainer 7.8.1 reads x.shape[axis] first: an IndexError
        with type_check.invalid_as(IndexError):
            type_check.expect(-x_type.ndim <= self.axis, self.axis < x_type.ndim)
        type_check.expect(x_type.dtype.kind == 'f')
        size = type_check.eval(x_type.shape[self.axis])
        if size % self.pool_size != 0:
            raise type_check.InvalidType(
                'x.shape[axis] % pool_size == 0',
                'x.shape[axis]={}, pool_size={}'.format(size, self.pool_size),
            )

    def forward(self, inputs):
        (x,) = inputs
        axis = self.axis % x.ndim
        self._x_shape = x.shape
        self._pooled_shape = (
            x.shape[:axis]
            + (x.shape[axis] // self.pool_size, self.pool_size)
            + x.shape[axis + 1 :]
        )
        # The pooled shape with a size-one pool axis: where y fits.
        self._kept_shape = (
            self._pooled_shape[: axis + 1] + (1,) + self._pooled_shape[axis + 2 :]
        )
        # as Chainer's max node: x and y are kept, backward finds the
        # maxima from them
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        return (utils.force_array(x.reshape(self._pooled_shape).max(axis=axis + 1)),)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (y,) = self.get_retained_outputs()
        # Every element equal to the maximum of its group receives the
        # gradient, as in Chainer's max.
        argmax_mask = utils.force_array(
            x.array.reshape(self._pooled_shape) == y.array.reshape(self._kept_shape),
            x.dtype,
        )
        gy = reshape.reshape(grad_outputs[0], self._kept_shape)
        spread = broadcast.broadcast_to(gy, self._pooled_shape)
        return (reshape.reshape(spread * argmax_mask, self._x_shape),)


def maxout(x: Variable | NdArray, pool_size, axis=1) -> Variable:
    """Maxout activation function.

    The ``axis`` dimension of ``x``, of size ``M * pool_size``, is split
    into ``(M, pool_size)`` and the maximum is taken over each group of
    ``pool_size`` consecutive entries. See `Maxout Networks
    <https://arxiv.org/abs/1302.4389>`_.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype, usually the output of a linear or convolution
            layer; its first axis is the minibatch axis.
        pool_size (int): Size of each group.
        axis (int): Axis to pool over; its size must be a multiple of
            ``pool_size``. Negative values count from the end.

    Returns:
        Variable: Output variable of the dtype of ``x``, of the shape of
        ``x`` except that the ``axis`` dimension is ``M`` instead of
        ``M * pool_size``.

    Raises:
        ValueError: If ``pool_size`` is not positive.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[0, 5, 2, 1, 4, 3]], np.float32)
        >>> F.maxout(x, 2).array
        array([[5., 2., 4.]], dtype=float32)
        >>> F.maxout(x, 3).array
        array([[5., 4.]], dtype=float32)

    """
    if pool_size <= 0:
        raise ValueError('pool_size must be a positive integer.')
    return Maxout(pool_size, axis).apply((x,))[0]
