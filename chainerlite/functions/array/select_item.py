"""Selection of one element per row of a matrix."""

from __future__ import annotations

import numpy
import typing

import chainerlite
from chainerlite import backend
from chainerlite import function_node
from chainerlite import variable
from chainerlite.utils import _chainer_errors
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class SelectItem(function_node.FunctionNode):
    """Selection of the element ``x[i, t[i]]`` of each row ``i``."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(
            t_type.dtype.kind == 'i',
            x_type.ndim == 2,
            t_type.ndim == 1,
            x_type.shape[0] == t_type.shape[0],
        )

    def forward(self, inputs):
        x, t = inputs
        xp = backend.get_array_module(*inputs)
        n = x.shape[1]
        if chainerlite.is_debug() and t.size and (t.min() < 0 or t.max() >= n):
            # Chainer 7.8.1's debug mode refuses a negative one too
            raise ValueError(
                'select_item: each label t must be in [0, {}) in debug mode'.format(n)
            )
        if xp is numpy and t.size and (t.min() < -n or t.max() >= n):
            # Chainer 7.8.1 indexes with it: an IndexError there
            raise _chainer_errors.IndexValueError(
                'select_item: out of bounds index in t (each must be in '
                '[-{0}, {0}))'.format(n)
            )
        self.retain_inputs((1,))
        self._in_shape = x.shape
        self._in_dtype = x.dtype
        return (x[xp.arange(len(t)), t],)

    def backward(self, indexes, grad_outputs):
        (t,) = self.get_retained_inputs()
        gx = Assign(self._in_shape, self._in_dtype, t).apply(grad_outputs)[0]
        return gx, None


class Assign(function_node.FunctionNode):
    """Gradient node of select_item (Chainer's, by its constructor):
    applied to ``(gy,)``, zeros of ``shape`` and ``dtype`` with ``gy[i]``
    at ``(i, t[i])`` (``t`` a Variable or an array of labels)."""

    def __init__(self, shape, dtype, t):
        self.shape = shape
        self.dtype = dtype
        self.t = t.array if isinstance(t, variable.Variable) else t

    def forward(self, inputs):
        return (_placed(self.shape, self.dtype, inputs[0], self.t),)

    forward_cpu = forward_gpu = forward

    def backward(self, indexes, grad_outputs):
        return (SelectItem().apply((grad_outputs[0], self.t))[0],)


def _placed(shape, dtype, gy, t):
    """Zeros of ``shape`` and ``dtype`` with ``gy[i]`` at ``(i, t[i])``."""
    xp = backend.get_array_module(gy)
    gx = xp.zeros(shape, dtype)
    gx[xp.arange(len(t)), t] = gy
    return gx


def select_item(x: Variable | NdArray, t: Variable | NdArray) -> Variable:
    """Selects one element from each row of a matrix.

    ``y[i] = x[i, t[i]]`` for every row ``i``.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Matrix of shape
            ``(B, N)``.
        t (Variable or numpy.ndarray or cupy.ndarray): Signed integer array
            of shape ``(B,)`` with values in ``[0, N)``; a negative one
            counts from the end, as in NumPy (but in debug mode, where it is
            refused, as in Chainer). It gets no gradient. Values outside
            ``[-N, N)`` raise ``IndexError`` (also a ``ValueError``) on the
            CPU; on the GPU they are not checked.

    Returns:
        Variable: Output variable of shape ``(B,)`` and of the dtype of
        ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[0, 1, 2], [3, 4, 5]], np.float32)
        >>> t = np.array([0, 2], np.int32)
        >>> F.select_item(x, t).array
        array([0., 5.], dtype=float32)

    """
    return SelectItem().apply((x, t))[0]
