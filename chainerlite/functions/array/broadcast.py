"""Broadcasting of an array to a given shape."""

from __future__ import annotations

import chainerlite
import typing
from chainerlite import backend
from chainerlite import function_node
from chainerlite._core import ops_array
from chainerlite.functions.array import sum_to
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


# Compiled (F.sum's backward applies it to every loss gradient): its check
# and its read-only view of a NumPy array are written in C.
BroadcastTo = ops_array.BroadcastTo


def broadcast_to(x: Variable | NdArray, shape) -> Variable:
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
    return ops_array.broadcast_to(x, shape)


class Broadcast(function_node.FunctionNode):
    """Broadcasting of several arrays to their common shape."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check._argname(
            in_types, tuple('x{}'.format(i) for i in range(len(in_types)))
        )
        type_check.expect_broadcast_shapes(*[t.shape for t in in_types])

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        self._in_shapes = [x.shape for x in inputs]
        return tuple(xp.broadcast_arrays(*inputs))

    def backward(self, indexes, grad_outputs):
        return tuple(
            None
            if grad_outputs[i] is None
            else sum_to.sum_to(grad_outputs[i], self._in_shapes[i])
            for i in indexes
        )


def broadcast(*args):
    """Broadcasts several arrays to their common shape.

    Args:
        *args (Variable or numpy.ndarray or cupy.ndarray): Input variables.
            Their shapes must be broadcastable together following NumPy's
            rules.

    Returns:
        Variable or tuple of Variable: With one argument, that argument as a
        variable; otherwise one output per argument, each of the common
        shape.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> a = np.zeros((2, 1), np.float32)
        >>> b = np.zeros(3, np.float32)
        >>> y, z = F.broadcast(a, b)
        >>> y.shape, z.shape
        ((2, 3), (2, 3))

    """
    if len(args) == 1:
        return chainerlite.as_variable(args[0])
    return Broadcast().apply(args)
