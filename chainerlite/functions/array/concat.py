"""Concatenation of arrays along an existing axis."""

from __future__ import annotations

import numpy
import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.array import split_axis
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Concat(function_node.FunctionNode):
    """Concatenation of arrays along an axis."""

    def __init__(self, axis=1):
        if not isinstance(axis, int):
            raise TypeError('concat: axis must be int')
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check._argname(
            in_types, tuple('x{}'.format(i) for i in range(len(in_types)))
        )
        x0 = in_types[0]
        axis = type_check.make_variable(self.axis, 'axis')
        type_check.expect(-x0.ndim <= axis, axis < x0.ndim)
        ndim = type_check.eval(x0.ndim)
        axis = self.axis % ndim
        for x in in_types[1:]:
            type_check.expect(x0.dtype == x.dtype, x0.ndim == x.ndim)
            for d in range(ndim):
                if d != axis:
                    type_check.expect(x0.shape[d] == x.shape[d])

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        sizes = [x.shape[self.axis] for x in inputs[:-1]]
        self._indices = tuple(int(i) for i in numpy.cumsum(sizes))
        return (xp.concatenate(inputs, axis=self.axis),)

    def backward(self, indexes, grad_outputs):
        (gy,) = grad_outputs
        if len(self._indices) == 0:
            return (gy,)
        return split_axis.split_axis(gy, self._indices, self.axis)


def concat(xs: typing.Sequence[Variable | NdArray], axis=1) -> Variable:
    """Concatenates arrays along an existing axis.

    Args:
        xs (list of Variable or numpy.ndarray or cupy.ndarray): Input
            variables, all of one dtype and one number of axes, with the same
            sizes on every axis except ``axis``.
        axis (int): The axis to concatenate along (negative values count
            from the end).

    Returns:
        Variable: Output variable whose size along ``axis`` is the sum of
        those of the inputs.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(4, dtype=np.float32).reshape(2, 2)
        >>> y = np.full((2, 1), 9, np.float32)
        >>> F.concat((x, y)).array
        array([[0., 1., 9.],
               [2., 3., 9.]], dtype=float32)
        >>> F.concat((x, x), axis=0).shape
        (4, 2)

    """
    return Concat(axis).apply(xs)[0]
