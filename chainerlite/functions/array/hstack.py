"""Horizontal (column-wise) stacking of arrays."""

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.array import reshape
from chainerlite.functions.array import split_axis
from chainerlite.utils import type_check


class Hstack(function_node.FunctionNode):
    """Concatenation of arrays along axis 1 (axis 0 for 1-D arrays)."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check._argname(
            in_types, tuple('x{}'.format(i) for i in range(len(in_types))))
        x0 = in_types[0]
        ndim = type_check.eval(x0.ndim)
        for x in in_types[1:]:
            type_check.expect(x0.dtype == x.dtype, x0.ndim == x.ndim)
            if ndim > 1:
                for d in range(ndim):
                    if d != 1:
                        type_check.expect(x0.shape[d] == x.shape[d])

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        self._in_shapes = [x.shape for x in inputs]
        return xp.hstack(inputs),

    def backward(self, indexes, grad_outputs):
        ndim = len(self._in_shapes[0])
        axis = 1 if ndim > 1 else 0
        sizes = [shape[axis] if ndim else 1 for shape in self._in_shapes]
        gxs = split_axis.split_axis(
            grad_outputs[0], numpy.cumsum(sizes[:-1]), axis)
        return tuple(reshape.reshape(gx, shape)
                     for gx, shape in zip(gxs, self._in_shapes))


def hstack(xs):
    """Concatenates arrays horizontally (column-wise).

    Arrays of two or more axes are concatenated along axis 1, one-dimensional
    arrays along axis 0, and scalars (0-dimensional arrays) form a vector, as
    in :func:`numpy.hstack`.

    Args:
        xs (list of Variable or numpy.ndarray or cupy.ndarray): Input
            variables, of one dtype and one number of axes; with two or more
            axes their sizes must agree on every axis but axis 1.

    Returns:
        Variable: The concatenated output variable.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[1, 2]], np.float32)
        >>> y = np.array([[3]], np.float32)
        >>> F.hstack((x, y)).array
        array([[1., 2., 3.]], dtype=float32)

    """
    return Hstack().apply(xs)[0]
