"""Extraction of a diagonal of an array."""

from __future__ import annotations

import operator
import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Diagonal(function_node.FunctionNode):
    """Extraction of a diagonal of an array."""

    def __init__(self, offset, axis1, axis2):
        self.offset = offset
        self.axis1 = axis1
        self.axis2 = axis2

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        # Axes that are not ints are a TypeError before the rank is
        # checked, as in Chainer 7.8.1 (which compares them first).
        for name in ('axis1', 'axis2'):
            try:
                operator.index(getattr(self, name))
            except TypeError:
                raise TypeError(
                    'diagonal: {} must be an int, but {!r} is given'.format(
                        name, getattr(self, name)
                    )
                ) from None
        axis1 = type_check.make_variable(self.axis1, 'axis1')
        axis2 = type_check.make_variable(self.axis2, 'axis2')
        type_check.expect(
            -x_type.ndim <= axis1,
            axis1 < x_type.ndim,
            -x_type.ndim <= axis2,
            axis2 < x_type.ndim,
        )
        # NumPy takes the offset before it compares the axes: an offset that
        # is not an int is its TypeError in Chainer 7.8.1's forward.
        try:
            operator.index(self.offset)
        except TypeError:
            raise TypeError(
                'diagonal: offset must be an int, but {!r} is given'.format(self.offset)
            ) from None
        ndim = type_check.eval(x_type.ndim)
        # Fewer than 2 axes or the same axis twice: NumPy's ValueError in
        # Chainer 7.8.1.
        with type_check.invalid_as(ValueError):
            type_check.expect(x_type.ndim >= 2, axis1 % ndim != axis2 % ndim)

    def forward(self, inputs):
        (x,) = inputs
        self._in_shape = x.shape
        # An offset past either end gives the empty diagonal that one at
        # that end gives; NumPy takes only a C long.
        # (the node keeps the offset given, as Chainer's does)
        self._offset = max(-x.shape[self.axis1], min(self.offset, x.shape[self.axis2]))
        return (x.diagonal(self._offset, self.axis1, self.axis2),)

    def backward(self, indexes, grad_outputs):
        return DiagonalGrad(self._in_shape, self._offset, self.axis1, self.axis2).apply(
            grad_outputs
        )


class DiagonalGrad(function_node.FunctionNode):
    """Gradient of diagonal: puts the values back on the diagonal of zeros
    of ``out_shape`` (the shape of diagonal's input)."""

    def __init__(self, out_shape, offset, axis1, axis2):
        self._in_shape = out_shape
        self.offset = offset
        self.axis1 = axis1
        self.axis2 = axis2

    def forward(self, inputs):
        (gy,) = inputs
        xp = backend.get_array_module(gy)
        gx = xp.zeros(self._in_shape, gy.dtype)
        # A writable view whose last two axes are axis1 and axis2.
        view = xp.moveaxis(gx, (self.axis1, self.axis2), (-2, -1))
        steps = xp.arange(gy.shape[-1])
        view[..., steps + max(-self.offset, 0), steps + max(self.offset, 0)] = gy
        return (gx,)

    def backward(self, indexes, grad_outputs):
        return (diagonal(grad_outputs[0], self.offset, self.axis1, self.axis2),)


def diagonal(x: Variable | NdArray, offset=0, axis1=0, axis2=1) -> Variable:
    """Takes a diagonal of an array.

    As :func:`numpy.diagonal`: the axes ``axis1`` and ``axis2`` are removed
    and the diagonal ``x[..., i, i + offset]`` (in those two axes) is
    appended as the last axis.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable with
            at least two axes.
        offset (int): Offset of the diagonal from the main one; positive
            values take diagonals above it.
        axis1 (int): The axis of the first index of the diagonal.
        axis2 (int): The axis of the second index; it must differ from
            ``axis1``.

    Returns:
        Variable: The diagonal.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(9, dtype=np.float32).reshape(3, 3)
        >>> F.diagonal(x).array
        array([0., 4., 8.], dtype=float32)
        >>> F.diagonal(x, offset=1).array
        array([1., 5.], dtype=float32)

    """
    return Diagonal(offset, axis1, axis2).apply((x,))[0]
