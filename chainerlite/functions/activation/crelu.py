"""Concatenated rectified linear unit."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import split_axis
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class CReLU(function_node.FunctionNode):
    """Concatenated ReLU: ``(max(0, x), max(0, -x))`` along an axis."""

    def __init__(self, axis=1):
        if not isinstance(axis, int):
            raise TypeError('axis must be an integer value')
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        if self.axis >= 0:
            type_check.expect(x_type.ndim > self.axis)
        else:
            type_check.expect(x_type.ndim >= -self.axis)

    def get_output_shape(self, input_shape):
        """Returns the shape of the output for an input of ``input_shape``:
        that shape with the length of ``axis`` doubled."""
        shape = list(input_shape)
        shape[self.axis] *= 2
        return tuple(shape)

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        # zero first: NumPy's maximum returns its second operand at a tie
        # for float32/64 and its first for float16, so a zero keeps its
        # sign except in float16, as in Chainer 7.8.1
        zero = x.dtype.type(0)
        y = xp.concatenate((xp.maximum(zero, x), xp.maximum(zero, -x)), axis=self.axis)
        return (utils.force_array(y, x.dtype),)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        # the halves of gy by one node, as Chainer's (hooks see SplitAxis)
        gy_pos, gy_neg = split_axis.split_axis(gy, 2, self.axis)
        positive = utils.force_array(x.array > 0, x.dtype)
        negative = utils.force_array(x.array < 0, x.dtype)
        return (gy_pos * positive - gy_neg * negative,)


def crelu(x: Variable | NdArray, axis=1) -> Variable:
    """Concatenated rectified linear unit function.

    .. math::
        f(x) = (\\max(0, x), \\max(0, -x))

    The two halves are concatenated along ``axis``. See `Understanding and
    Improving Convolutional Neural Networks via Concatenated Rectified
    Linear Units <https://arxiv.org/abs/1603.05201>`_.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype, of shape :math:`(s_1, ..., s_N)`.
        axis (int): Axis along which the two halves are concatenated;
            negative values count from the end.

    Returns:
        Variable: Output variable of the dtype of ``x``, whose ``axis``
        dimension is twice that of ``x``: :math:`(s_1, ..., 2 s_{axis},
        ..., s_N)`.

    Raises:
        TypeError: If ``axis`` is not an ``int``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[-1, 0], [2, -3]], np.float32)
        >>> F.crelu(x, axis=1).array  # -0 where x is 0, as in Chainer
        array([[ 0.,  0.,  1., -0.],
               [ 2.,  0.,  0.,  3.]], dtype=float32)

    """
    return CReLU(axis).apply((x,))[0]
