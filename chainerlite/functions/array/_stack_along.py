"""Shared node of hstack, vstack and dstack."""

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.array import reshape
from chainerlite.functions.array import split_axis
from chainerlite.utils import type_check


class StackAlong(function_node.FunctionNode):
    """Concatenation along a fixed axis, after promoting small inputs.

    A subclass names the array routine (``_array_function``, e.g.
    ``'vstack'``), the axis it concatenates along (``_axis``) and the number
    of axes inputs are promoted to first (``_min_ndim``). Inputs with fewer
    axes than that must all have one shape and add one entry each along the
    axis; inputs with more axes must agree on every axis but the
    concatenation axis.
    """

    _array_function = None
    _axis = None
    _min_ndim = None

    def _layout(self, ndim):
        """Returns ``(axis, promoted)`` for inputs of ``ndim`` axes."""
        return (min(self._axis, max(ndim, self._min_ndim) - 1), ndim < self._min_ndim)

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check._argname(
            in_types, tuple('x{}'.format(i) for i in range(len(in_types)))
        )
        x0 = in_types[0]
        ndim = type_check.eval(x0.ndim)
        axis, promoted = self._layout(ndim)
        for x in in_types[1:]:
            type_check.expect(x0.dtype == x.dtype, x0.ndim == x.ndim)
            if promoted:
                type_check.expect(x0.shape == x.shape)
            else:
                for d in range(ndim):
                    if d != axis:
                        type_check.expect(x0.shape[d] == x.shape[d])

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        self._in_shapes = [x.shape for x in inputs]
        return (getattr(xp, self._array_function)(inputs),)

    def backward(self, indexes, grad_outputs):
        axis, promoted = self._layout(len(self._in_shapes[0]))
        sizes = [1 if promoted else shape[axis] for shape in self._in_shapes]
        gxs = split_axis.split_axis(grad_outputs[0], numpy.cumsum(sizes[:-1]), axis)
        return tuple(
            reshape.reshape(gx, shape) for gx, shape in zip(gxs, self._in_shapes)
        )
