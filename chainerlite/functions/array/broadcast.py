"""Broadcasting of an array to a given shape."""

import chainerlite
from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.array import sum_to
from chainerlite.utils import type_check


class BroadcastTo(function_node.FunctionNode):
    """Broadcasting of an array to a given shape."""

    def __init__(self, shape):
        self._shape = tuple(shape)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        ndim = type_check.eval(x_type.ndim)
        type_check.expect(x_type.ndim <= len(self._shape))
        for i in range(-ndim, 0):
            dim = type_check.eval(x_type.shape[i])
            if dim != 1 and dim != self._shape[i]:
                raise type_check.InvalidType(
                    'in_types[0].shape[{}] == 1 or '
                    'in_types[0].shape[{}] == {}'.format(
                        i, i, self._shape[i]),
                    'in_types[0].shape[{}] == {}'.format(i, dim))

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self._in_shape = x.shape
        return xp.broadcast_to(x, self._shape),

    def backward(self, indexes, grad_outputs):
        return sum_to.sum_to(grad_outputs[0], self._in_shape),


def broadcast_to(x, shape):
    """Broadcasts an array to a given shape.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.
        shape (tuple of int): The target shape. Following NumPy's rules, the
            trailing axes of ``x`` must each equal the target size or be one.

    Returns:
        Variable: Output variable of shape ``shape``. When ``x`` already has
        that shape, ``x`` itself is returned as a variable.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(3, dtype=np.float32)
        >>> F.broadcast_to(x, (2, 3)).array
        array([[0., 1., 2.],
               [0., 1., 2.]], dtype=float32)

    """
    if x.shape == tuple(shape):
        return chainerlite.as_variable(x)
    return BroadcastTo(shape).apply((x,))[0]
