"""Stacking of arrays along a new axis."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite._kernels import copies
from chainerlite import function_node
from chainerlite.functions.array import separate
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Stack(function_node.FunctionNode):
    """Stacking of arrays along a new axis."""

    def __init__(self, axis=0):
        if not isinstance(axis, int):
            raise TypeError('stack: axis must be int')
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check._argname(
            in_types, tuple('x{}'.format(i) for i in range(len(in_types)))
        )
        x0 = in_types[0]
        axis = type_check.make_variable(self.axis, 'axis')
        type_check.expect(-x0.ndim - 1 <= axis, axis <= x0.ndim)
        for x in in_types[1:]:
            type_check.expect(x0.dtype == x.dtype, x0.shape == x.shape)

    def forward(self, inputs):
        y = copies.stack(inputs, self.axis)  # large arrays: by the threads
        if y is None:
            y = backend.get_array_module(*inputs).stack(inputs, axis=self.axis)
        return (y,)

    def backward(self, indexes, grad_outputs):
        return separate.separate(grad_outputs[0], self.axis)


def stack(xs: typing.Sequence[Variable | NdArray], axis=0) -> Variable:
    """Stacks arrays of one shape along a new axis.

    Args:
        xs (list of Variable or numpy.ndarray or cupy.ndarray): Input
            variables, all of one shape and dtype.
        axis (int): Position of the new axis in the output, from
            ``-x.ndim - 1`` to ``x.ndim``.

    Returns:
        Variable: Output variable with one more axis than the inputs, of size
        ``len(xs)``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(3, dtype=np.float32)
        >>> F.stack((x, x * 2)).array
        array([[0., 1., 2.],
               [0., 2., 4.]], dtype=float32)
        >>> F.stack((x, x * 2), axis=1).shape
        (3, 2)

    """
    return Stack(axis).apply(xs)[0]
