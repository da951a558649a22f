"""Vertical (row-wise) stacking of arrays."""

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.array import reshape
from chainerlite.functions.array import split_axis
from chainerlite.utils import type_check


class Vstack(function_node.FunctionNode):
    """Concatenation of arrays along axis 0, after making them 2-D."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check._argname(
            in_types, tuple('x{}'.format(i) for i in range(len(in_types))))
        x0 = in_types[0]
        ndim = type_check.eval(x0.ndim)
        for x in in_types[1:]:
            type_check.expect(x0.dtype == x.dtype, x0.ndim == x.ndim)
            if ndim <= 1:
                type_check.expect(x0.shape == x.shape)
            else:
                for d in range(1, ndim):
                    type_check.expect(x0.shape[d] == x.shape[d])

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        self._in_shapes = [x.shape for x in inputs]
        return xp.vstack(inputs),

    def backward(self, indexes, grad_outputs):
        ndim = len(self._in_shapes[0])
        sizes = [shape[0] if ndim > 1 else 1 for shape in self._in_shapes]
        gxs = split_axis.split_axis(
            grad_outputs[0], numpy.cumsum(sizes[:-1]), 0)
        return tuple(reshape.reshape(gx, shape)
                     for gx, shape in zip(gxs, self._in_shapes))


def vstack(xs):
    """Concatenates arrays vertically (row-wise).

    Arrays of two or more axes are concatenated along axis 0;
    one-dimensional arrays of length ``N`` become rows of shape ``(1, N)``
    first, as in :func:`numpy.vstack`.

    Args:
        xs (list of Variable or numpy.ndarray or cupy.ndarray): Input
            variables, of one dtype and one number of axes; their sizes must
            agree on every axis but axis 0 (on all axes when they have at most
            one).

    Returns:
        Variable: The concatenated output variable, with at least two axes.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([1, 2], np.float32)
        >>> F.vstack((x, x + 2)).array
        array([[1., 2.],
               [3., 4.]], dtype=float32)

    """
    return Vstack().apply(xs)[0]
