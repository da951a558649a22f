"""Splitting of an array into several along an axis."""

from __future__ import annotations

import numpy
import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite.backends import cuda
from chainerlite.functions.array import concat
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _normalize(indices_or_sections):
    if isinstance(indices_or_sections, int):
        if indices_or_sections <= 0:
            raise ValueError('split_axis: the number of sections must be positive')
        return indices_or_sections
    if isinstance(indices_or_sections, (list, tuple)):
        indices = numpy.asarray(indices_or_sections)
    elif isinstance(indices_or_sections, (numpy.ndarray, cuda.ndarray)):
        indices = cuda.to_cpu(indices_or_sections)
    else:
        indices = None
    if (
        indices is None
        or indices.ndim != 1
        or (indices.size and indices.dtype.kind not in 'iu')
    ):
        raise TypeError('split_axis: indices_or_sections must be integer or 1-D array')
    if (numpy.diff(indices) < 0).any():
        raise ValueError('split_axis: indices_or_sections must be sorted')
    return tuple(int(i) for i in indices)


class SplitAxis(function_node.FunctionNode):
    """Splitting of an array along an axis."""

    def __init__(self, indices_or_sections, axis):
        if not isinstance(axis, int):
            raise TypeError('split_axis: axis must be int')
        self.indices_or_sections = _normalize(indices_or_sections)
        self.axis = axis

    # Chainer's attributes: the split points, or the number of equal pieces
    @property
    def indices(self):
        ios = self.indices_or_sections
        return None if isinstance(ios, int) else ios

    @property
    def sections(self):
        ios = self.indices_or_sections
        return ios if isinstance(ios, int) else None

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        axis = type_check.make_variable(self.axis, 'axis')
        type_check.expect(-x_type.ndim <= axis, axis < x_type.ndim)
        if isinstance(self.indices_or_sections, int):
            sections = type_check.make_variable(self.indices_or_sections, 'sections')
            type_check.expect(x_type.shape[self.axis] % sections == 0)
        elif self.indices_or_sections:
            # (else NumPy gives empty pieces for indices past the end)
            last = type_check.make_variable(self.indices_or_sections[-1], 'last_index')
            type_check.expect(x_type.shape[self.axis] >= last)

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        ys = xp.split(x, self.indices_or_sections, self.axis)
        self._shapes = [y.shape for y in ys]
        return tuple(ys)

    def backward(self, indexes, grad_outputs):
        xp = backend.get_array_module(*grad_outputs)
        dtype = next(g.dtype for g in grad_outputs if g is not None)
        gys = [
            xp.zeros(shape, dtype) if g is None else g
            for g, shape in zip(grad_outputs, self._shapes)
        ]
        return (concat.concat(gys, self.axis),)


def split_axis(x: Variable | NdArray, indices_or_sections, axis, force_tuple=True):
    """Splits an array into several along an axis.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.
        indices_or_sections (int or 1-D array): An integer ``N`` splits
            ``x`` into ``N`` equal parts, which requires ``x.shape[axis]`` to
            be a multiple of ``N``. A sorted sequence of integers gives the
            positions where ``x`` is cut, as in :func:`numpy.split`.
        axis (int): The axis to split along.
        force_tuple (bool): If ``True`` (the default) the result is always a
            tuple; if ``False`` a single part is returned as a variable.

    Returns:
        tuple of Variable or Variable: The parts, in order.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
        >>> [y.shape for y in F.split_axis(x, 3, axis=1)]
        [(2, 1), (2, 1), (2, 1)]
        >>> [y.array.tolist() for y in F.split_axis(x, [1], axis=1)]
        [[[0.0], [3.0]], [[1.0, 2.0], [4.0, 5.0]]]
        >>> F.split_axis(x, 1, axis=0, force_tuple=False).shape
        (2, 3)

    """
    ys = SplitAxis(indices_or_sections, axis).apply((x,))
    if force_tuple or len(ys) != 1:
        return ys
    return ys[0]
