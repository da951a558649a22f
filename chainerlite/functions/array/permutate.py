"""Permutation of an array along an axis by given indices."""

from __future__ import annotations

import numpy
import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import variable
from chainerlite.backends import cuda
from chainerlite.utils import _chainer_errors
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _check_indices(indices):
    indices = cuda.to_cpu(indices)
    outside = indices[(indices < 0) | (indices >= len(indices))]
    if outside.size:
        # past the end is Chainer 7.8.1's IndexError (it indexes with it); a
        # negative one it takes from the end, which is not a permutation
        error = ValueError if outside[0] < 0 else _chainer_errors.IndexValueError
        raise error('permutate: out of bounds index: {}'.format(outside[0]))
    counts = numpy.bincount(indices, minlength=len(indices))
    if (counts > 1).any():
        raise ValueError(
            'permutate: indices contains duplicate value: {}'.format(
                int(numpy.argmax(counts > 1))
            )
        )


class Permutate(function_node.FunctionNode):
    """Permutation of an array along an axis by ``indices``, a 1-D signed
    integer array kept on the node (it is not an input of the graph)."""

    def __init__(self, indices, axis, inv):
        if not isinstance(axis, int):
            raise TypeError('permutate: axis must be int')
        self.indices = indices
        self.axis = axis
        self.inv = inv

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        axis = type_check.make_variable(self.axis, 'axis')
        type_check.expect(-x_type.ndim <= axis, axis < x_type.ndim)
        length = type_check.make_variable(len(self.indices), 'len(indices)')
        type_check.expect(x_type.shape[self.axis] == length)

    def forward(self, inputs):
        (x,) = inputs
        indices = self.indices
        _check_indices(indices)
        xp = backend.get_array_module(x)
        if self.inv:
            inverse = xp.empty_like(indices)
            inverse[indices] = xp.arange(len(indices), dtype=indices.dtype)
            indices = inverse
        return (xp.take(x, indices, axis=self.axis),)

    def backward(self, indexes, grad_outputs):
        node = Permutate(self.indices, self.axis, not self.inv)
        return node.apply(grad_outputs)


def permutate(x: Variable | NdArray, indices, axis=0, inv=False) -> Variable:
    """Permutes an array along an axis.

    ``y[i] = x[indices[i]]`` along ``axis``; with ``inv=True`` the inverse
    permutation is applied instead: ``y[indices[i]] = x[i]``.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.
        indices (Variable or numpy.ndarray or cupy.ndarray): A permutation
            of ``0, ..., x.shape[axis] - 1`` as a signed integer 1-D array,
            kept on the node (a Variable's array is taken; it gets no
            gradient).
        axis (int): The axis to permute along.
        inv (bool): If ``True``, ``indices`` is treated as its inverse.

    Returns:
        Variable: Output variable of the shape of ``x``.

    Raises:
        ValueError: If ``indices`` is not a 1-D signed integer array or not
            a permutation.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(6, dtype=np.float32).reshape(3, 2)
        >>> indices = np.array([2, 0, 1], np.int32)
        >>> F.permutate(x, indices).array
        array([[4., 5.],
               [0., 1.],
               [2., 3.]], dtype=float32)
        >>> F.permutate(x, indices, inv=True).array
        array([[2., 3.],
               [4., 5.],
               [0., 1.]], dtype=float32)

    """
    if indices.dtype.kind != 'i' or indices.ndim != 1:
        raise ValueError('permutate: indices must be a one-dimensional int array')
    return Permutate(variable.as_array(indices), axis, inv).apply((x,))[0]
