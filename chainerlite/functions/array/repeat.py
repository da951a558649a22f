"""Repetition of the elements of an array."""

from __future__ import annotations

import numpy
import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite import variable
from chainerlite.functions import _grad_of
from chainerlite.functions.array import get_item
from chainerlite.functions.array import reshape
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Repeat(function_node.FunctionNode):
    """Repetition of the elements of an array."""

    def __init__(self, repeats, axis=None):
        if isinstance(repeats, int):
            repeats = (repeats,)
        elif not (
            isinstance(repeats, tuple) and all(isinstance(r, int) for r in repeats)
        ):
            raise TypeError('repeat: repeats must be int or tuple of ints')
        if any(r < 0 for r in repeats):
            raise ValueError('repeat: all elements in repeats must be zero or larger')
        if axis is not None and (not isinstance(axis, int) or isinstance(axis, bool)):
            raise TypeError('repeat: axis must be int or None')
        # bool counts as int (True repeats once); shapes need plain ints.
        self.repeats = tuple(int(r) for r in repeats)
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        if self.axis is None:
            size = x_type.size
        else:
            axis = type_check.make_variable(self.axis, 'axis')
            type_check.expect(-x_type.ndim <= axis, axis < x_type.ndim)
            size = x_type.shape[self.axis]
        if len(self.repeats) != 1:
            n_repeats = type_check.make_variable(len(self.repeats), 'len(repeats)')
            type_check.expect(size == n_repeats)

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))  # as Chainer's: the backward reads its shape
        repeats = self.repeats[0] if len(self.repeats) == 1 else list(self.repeats)
        return (xp.repeat(x, repeats, self.axis),)

    def backward(self, indexes, grad_outputs):
        (gy,) = grad_outputs
        in_shape = self.get_retained_inputs()[0].shape
        if self.axis is None:
            axis, shape = 0, (utils.size_of_shape(in_shape),)
        else:
            axis = self.axis % len(in_shape)
            shape = in_shape
        n = shape[axis]
        if len(self.repeats) == 1:
            # Each element's copies are adjacent: split the axis and sum.
            split = gy.shape[:axis] + (n, self.repeats[0]) + gy.shape[axis + 1 :]
            gx = sum_mod.sum(reshape.reshape(gy, split), axis=axis + 1)
        else:
            index = numpy.repeat(numpy.arange(n), self.repeats)
            xp = backend.get_array_module(gy)
            slices = (slice(None),) * axis + (xp.asarray(index),)
            gx = get_item.GetItemGrad(slices, shape).apply((gy,))[0]
        return (reshape.reshape(gx, in_shape),)


def repeat(x: Variable | NdArray, repeats, axis=None) -> Variable:
    """Repeats each element of an array.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.
        repeats (int or tuple of int): Number of repetitions of each element
            (zero or larger); a tuple gives one count per element along
            ``axis``.
        axis (int or None): The axis along which to repeat. ``None`` repeats
            the elements of the flattened array and gives a 1-D output.

    Returns:
        Variable: The repeated output variable.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[1, 2], [3, 4]], np.float32)
        >>> F.repeat(x, 2).array
        array([1., 1., 2., 2., 3., 3., 4., 4.], dtype=float32)
        >>> F.repeat(x, (1, 2), axis=0).array
        array([[1., 2.],
               [3., 4.],
               [3., 4.]], dtype=float32)

    """
    return Repeat(repeats, axis).apply((x,))[0]


class RepeatGrad(_grad_of.GradOf):
    """Gradient of :func:`repeat` for an input of shape ``in_shape`` and
    dtype ``in_dtype``: applied to ``(gy,)``, the sum of the repeated
    copies' gradients; its own gradient repeats again."""

    def __init__(self, repeats, axis, in_shape, in_dtype):
        self.repeats = repeats
        self.axis = axis
        self.in_shape = in_shape
        self.in_dtype = in_dtype

    def _input(self, gy):
        xp = backend.get_array_module(gy.array)
        return variable.Variable(xp.zeros(self.in_shape, self.in_dtype))

    def _like(self, xs):
        return [self._input(xs[0])]

    def gradients(self, xs):
        # repeat is linear: its gradient at any input (zeros here)
        (gy,) = xs
        return _grad_of.grads_of(
            lambda v: repeat(v, self.repeats, self.axis), [self._input(gy)], gy
        )
