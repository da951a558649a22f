"""Permutation of an array along an axis by given indices."""

from __future__ import annotations

import numpy
import typing

import chainerlite
from chainerlite import backend
from chainerlite import function_node
from chainerlite import variable
from chainerlite.backends import cuda
from chainerlite.utils import _chainer_errors
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _check_indices(indices, inv):
    indices = cuda.to_cpu(indices)
    n = len(indices)
    outside = indices[(indices < -n) | (indices >= n)]
    if outside.size:
        # Chainer 7.8.1 indexes with it: an IndexError there
        raise _chainer_errors.IndexValueError(
            'permutate: out of bounds index: {}'.format(outside[0])
        )
    if chainerlite.is_debug() and (indices < 0).any():
        # Chainer 7.8.1's debug mode refuses them too
        raise ValueError(
            'permutate: out of bounds index: {} (a negative index is refused '
            'in debug mode)'.format(indices[indices < 0][0])
        )
    # a negative index counts from the end, as NumPy's (and Chainer's
    # outside debug mode)
    counts = numpy.bincount(indices % max(n, 1), minlength=n)
    if (counts > 1).any():
        # Chainer 7.8.1's inverse of such indexes leaves places unset, and
        # it then indexes with what they hold (an IndexError, mostly)
        raise (_chainer_errors.IndexValueError if inv else ValueError)(
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
        # indices that are no permutation of any length are refused first,
        # as Chainer 7.8.1's debug mode refuses them before it indexes
        _check_indices(self.indices, self.inv)
        length = type_check.make_variable(len(self.indices), 'len(indices)')
        # Chainer 7.8.1 does not check it and indexes (an IndexError where
        # it fails)
        with type_check.invalid_as(IndexError):
            type_check.expect(x_type.shape[self.axis] == length)

    def forward(self, inputs):
        (x,) = inputs
        indices = self.indices
        _check_indices(indices, self.inv)
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
            gradient). A negative index counts from the end, as in NumPy,
            but in debug mode (where it is refused, as in Chainer).
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
