"""Cumulative sum of array elements along an axis."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import reshape
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class AlongAxis(function_node.FunctionNode):
    """Base of the cumulative functions: one float input and an axis.

    Args:
        axis (int or None): The axis; ``None`` flattens the input first.

    """

    def __init__(self, axis=None):
        if axis is not None and not isinstance(axis, int):
            raise TypeError('axis must be int or None')
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        if self.axis is not None:
            if self.axis >= 0:
                type_check.expect(self.axis < x_type.ndim)
            else:
                type_check.expect(-self.axis - 1 < x_type.ndim)


class Cumsum(AlongAxis):
    """Cumulative sum of array elements along an axis.

    Args:
        axis (int or None): The axis; ``None`` flattens the input first.
        reverse (bool): If ``True``, the sums run from the end of the axis
            to its start (``y[i]`` is the sum of ``x[i:]``); this is the
            gradient of the forward cumulative sum.

    """

    def __init__(self, axis=None, reverse=False):
        super().__init__(axis)
        self.reverse = reverse

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self._in_shape = x.shape
        axis = self.axis
        if axis is None:
            x = x.ravel()
            axis = 0
        if self.reverse:
            y = xp.flip(xp.cumsum(xp.flip(x, axis), axis=axis), axis)
        else:
            y = xp.cumsum(x, axis=axis)
        return (utils.force_array(y, x.dtype),)

    def backward(self, indexes, grad_outputs):
        (gy,) = grad_outputs
        axis = 0 if self.axis is None else self.axis
        gx = Cumsum(axis, not self.reverse).apply((gy,))[0]
        return (reshape.reshape(gx, self._in_shape),)


def cumsum(x: Variable | NdArray, axis=None) -> Variable:
    """Cumulative sum of array elements along an axis.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        axis (int or None): The axis along which the sums run. ``None``
            flattens ``x`` first.

    Returns:
        Variable: Output variable with the shape of ``x`` (1-D with
        ``x.size`` elements when ``axis`` is ``None``) and its dtype.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
        >>> F.cumsum(x).array
        array([ 1.,  3.,  6., 10., 15., 21.], dtype=float32)
        >>> F.cumsum(x, axis=0).array
        array([[1., 2., 3.],
               [5., 7., 9.]], dtype=float32)

    """
    return Cumsum(axis).apply((x,))[0]
