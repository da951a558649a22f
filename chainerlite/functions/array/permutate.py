"""Permutation of an array along an axis by given indices."""

from __future__ import annotations

import numpy
import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import variable
from chainerlite.backends import cuda
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _check_indices(indices):
    indices = cuda.to_cpu(indices)
    outside = indices[(indices < 0) | (indices >= len(indices))]
    if outside.size:
        raise ValueError('permutate: out of bounds index: {}'.format(outside[0]))
    counts = numpy.bincount(indices, minlength=len(indices))
    if (counts > 1).any():
        raise ValueError(
            'permutate: indices contains duplicate value: {}'.format(
                int(numpy.argmax(counts > 1))
            )
        )


class Permutate(function_node.FunctionNode):
    """Permutation of an array along an axis."""

    def __init__(self, axis=0, inv=False):
        if not isinstance(axis, int):
            raise TypeError('permutate: axis must be int')
        self.axis = axis
        self.inv = inv

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'indices'))
        x_type, ind_type = in_types
        axis = type_check.make_variable(self.axis, 'axis')
        type_check.expect(
            ind_type.dtype.kind == 'i',
            ind_type.ndim == 1,
            -x_type.ndim <= axis,
            axis < x_type.ndim,
        )
        type_check.expect(x_type.shape[self.axis] == ind_type.shape[0])

    def forward(self, inputs):
        x, indices = inputs
        _check_indices(indices)
        xp = backend.get_array_module(*inputs)
        self.retain_inputs((1,))
        if self.inv:
            inverse = xp.empty_like(indices)
            inverse[indices] = xp.arange(len(indices), dtype=indices.dtype)
            indices = inverse
        return (xp.take(x, indices, axis=self.axis),)

    def backward(self, indexes, grad_outputs):
        (indices,) = self.get_retained_inputs()
        return permutate(grad_outputs[0], indices, self.axis, not self.inv), None


def permutate(x: Variable | NdArray, indices, axis=0, inv=False) -> Variable:
    """Permutes an array along an axis.

    ``y[i] = x[indices[i]]`` along ``axis``; with ``inv=True`` the inverse
    permutation is applied instead: ``y[indices[i]] = x[i]``.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.
        indices (Variable or numpy.ndarray or cupy.ndarray): A permutation
            of ``0, ..., x.shape[axis] - 1`` as a signed integer 1-D array.
            It gets no gradient.
        axis (int): The axis to permute along.
        inv (bool): If ``True``, ``indices`` is treated as its inverse.

    Returns:
        Variable: Output variable of the shape of ``x``.

    Raises:
        ValueError: If ``indices`` is not a permutation.

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
    return Permutate(axis, inv).apply((x, variable.as_array(indices)))[0]
