"""Depth-wise stacking of arrays (along the third axis)."""

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.array import reshape
from chainerlite.functions.array import split_axis
from chainerlite.utils import type_check


class Dstack(function_node.FunctionNode):
    """Concatenation of arrays along axis 2, after making them 3-D."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check._argname(
            in_types, tuple('x{}'.format(i) for i in range(len(in_types))))
        x0 = in_types[0]
        ndim = type_check.eval(x0.ndim)
        for x in in_types[1:]:
            type_check.expect(x0.dtype == x.dtype, x0.ndim == x.ndim)
            if ndim <= 2:
                type_check.expect(x0.shape == x.shape)
            else:
                for d in range(ndim):
                    if d != 2:
                        type_check.expect(x0.shape[d] == x.shape[d])

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        self._in_shapes = [x.shape for x in inputs]
        return xp.dstack(inputs),

    def backward(self, indexes, grad_outputs):
        ndim = len(self._in_shapes[0])
        sizes = [shape[2] if ndim > 2 else 1 for shape in self._in_shapes]
        gxs = split_axis.split_axis(
            grad_outputs[0], numpy.cumsum(sizes[:-1]), 2)
        return tuple(reshape.reshape(gx, shape)
                     for gx, shape in zip(gxs, self._in_shapes))


def dstack(xs):
    """Concatenates arrays depth-wise (along the third axis).

    Arrays of three or more axes are concatenated along axis 2; arrays of
    shape ``(M, N)`` become ``(M, N, 1)``, ``(N,)`` becomes ``(1, N, 1)``
    and scalars ``(1, 1, 1)`` first, as in :func:`numpy.dstack`.

    Args:
        xs (list of Variable or numpy.ndarray or cupy.ndarray): Input
            variables, of one dtype and one number of axes; their sizes must
            agree on every axis but axis 2 (on all axes when they have at most
            two).

    Returns:
        Variable: The concatenated output variable, with at least three axes.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.zeros((2, 3), np.float32)
        >>> F.dstack((x, x)).shape
        (2, 3, 2)

    """
    return Dstack().apply(xs)[0]
