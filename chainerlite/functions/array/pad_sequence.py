"""Padding of arrays of different lengths into one batch array."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.array import get_item
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class PadSequence(function_node.FunctionNode):
    """Padding of sequences into one array."""

    def __init__(self, length, padding):
        self.length = length
        self.padding = padding

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check._argname(
            in_types, tuple('x{}'.format(i) for i in range(len(in_types)))
        )
        x0 = in_types[0]
        for x in in_types:
            type_check.expect(
                x.ndim > 0, x.shape[1:] == x0.shape[1:], x.dtype == x0.dtype
            )
            if self.length is not None:
                type_check.expect(
                    x.shape[0] <= type_check.make_variable(self.length, 'length')
                )

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        self._lengths = [len(x) for x in inputs]
        length = max(self._lengths) if self.length is None else self.length
        x0 = inputs[0]
        y = xp.full((len(inputs), length) + x0.shape[1:], self.padding, x0.dtype)
        for i, x in enumerate(inputs):
            y[i, : len(x)] = x
        return (y,)

    def backward(self, indexes, grad_outputs):
        (gy,) = grad_outputs
        return tuple(
            get_item.get_item(gy, (i, slice(0, self._lengths[i]))) for i in indexes
        )


def pad_sequence(
    xs: typing.Sequence[Variable | NdArray], length=None, padding=0
) -> Variable:
    """Pads arrays of different lengths into one batch array.

    Args:
        xs (list of Variable or numpy.ndarray or cupy.ndarray): Input
            variables of shapes ``(L_i, ...)``: the trailing axes and the
            dtype must be the same for all.
        length (None or int): Size of the second axis of the output; at
            least every ``L_i``. ``None`` uses the largest ``L_i``.
        padding (int or float): The value of the padded elements.

    Returns:
        Variable: Output variable of shape ``(len(xs), length, ...)`` whose
        ``i``-th row starts with ``xs[i]``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> xs = [np.array([1, 2, 3], np.float32),
        ...       np.array([4], np.float32)]
        >>> F.pad_sequence(xs).array
        array([[1., 2., 3.],
               [4., 0., 0.]], dtype=float32)
        >>> F.pad_sequence(xs, length=4, padding=-1).array
        array([[ 1.,  2.,  3., -1.],
               [ 4., -1., -1., -1.]], dtype=float32)

    """
    return PadSequence(length, padding).apply(xs)[0]
