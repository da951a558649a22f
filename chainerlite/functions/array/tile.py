"""Construction of an array by tiling a given array."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.array import reshape
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Tile(function_node.FunctionNode):
    """Tiling of an array."""

    def __init__(self, reps):
        if isinstance(reps, int):
            reps = (reps,)
        elif not (isinstance(reps, tuple) and all(isinstance(r, int) for r in reps)):
            raise TypeError('tile: reps must be int or tuple of ints')
        if any(r < 0 for r in reps):
            raise ValueError('tile: all elements in reps must be zero or larger')
        self.reps = reps

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self._in_shape = x.shape
        return (xp.tile(x, self.reps),)

    def backward(self, indexes, grad_outputs):
        (gy,) = grad_outputs
        ndim = max(len(self.reps), len(self._in_shape))
        reps = (1,) * (ndim - len(self.reps)) + self.reps
        shape = (1,) * (ndim - len(self._in_shape)) + self._in_shape
        # Axis i of gy is laid out as (reps[i], shape[i]); sum the copies.
        interleaved = tuple(n for pair in zip(reps, shape) for n in pair)
        gx = reshape.reshape(gy, interleaved)
        if ndim:
            gx = sum_mod.sum(gx, axis=tuple(range(0, 2 * ndim, 2)))
        return (reshape.reshape(gx, self._in_shape),)


def tile(x: Variable | NdArray, reps) -> Variable:
    """Constructs an array by repeating a given array as a whole.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.
        reps (int or tuple of int): Number of repetitions along each axis
            (all zero or larger). When ``reps`` and ``x`` differ in the
            number of axes, the shorter one is padded with ones in front, as
            in :func:`numpy.tile`.

    Returns:
        Variable: The tiled output variable.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([0, 1, 2], np.float32)
        >>> F.tile(x, 2).array
        array([0., 1., 2., 0., 1., 2.], dtype=float32)
        >>> F.tile(x, (2, 1)).array
        array([[0., 1., 2.],
               [0., 1., 2.]], dtype=float32)

    """
    return Tile(reps).apply((x,))[0]
