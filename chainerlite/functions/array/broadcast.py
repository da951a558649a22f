"""Broadcasting of an array to a given shape."""

from __future__ import annotations

import chainerlite
import numpy
import typing
from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.array import sum_to
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class BroadcastTo(function_node.FunctionNode):
    """Broadcasting of an array to a given shape."""

    def __init__(self, shape):
        self._shape = tuple(shape)

    def check_type_forward(self, in_types):
        # Light mode gives the arrays themselves: a shape that fits passes
        # at once; any other input gets the full check and its message.
        if (
            type(in_types) is type_check.LightTypeInfoTuple
            and len(in_types) == 1
            and _fits(in_types[0].shape, self._shape)
        ):
            return
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        ndim = type_check.eval(x_type.ndim)
        type_check.expect(x_type.ndim <= len(self._shape))
        for i in range(-ndim, 0):
            dim = type_check.eval(x_type.shape[i])
            if dim != 1 and dim != self._shape[i]:
                raise type_check.InvalidType(
                    'in_types[0].shape[{}] == 1 or in_types[0].shape[{}] == {}'.format(
                        i, i, self._shape[i]
                    ),
                    'in_types[0].shape[{}] == {}'.format(i, dim),
                )

    def forward(self, inputs):
        (x,) = inputs
        self._in_shape = x.shape
        return (_view(x, self._shape),)

    def backward(self, indexes, grad_outputs):
        return (sum_to.sum_to(grad_outputs[0], self._in_shape),)


def _fits(in_shape, shape):
    # Whether ``in_shape`` broadcasts to ``shape``.
    lead = len(shape) - len(in_shape)
    if lead < 0:
        return False
    for n, d in zip(in_shape, shape[lead:]):
        if n != 1 and n != d:
            return False
    return True


def _view(x, shape):
    # A read-only view of ``x`` broadcast to ``shape``, as
    # ``xp.broadcast_to`` gives. NumPy's is written in Python (about 2 us);
    # a C-contiguous NumPy array of plain numbers is viewed directly, with
    # stride zero on the axes it lacks or has of size one.
    if (
        type(x) is not numpy.ndarray
        or not x.flags.c_contiguous
        or x.dtype.kind not in 'biufc'
        or x.size == 0
    ):
        return backend.get_array_module(x).broadcast_to(x, shape)
    strides = (0,) * (len(shape) - x.ndim)
    if x.ndim:
        strides += tuple([0 if n == 1 else s for n, s in zip(x.shape, x.strides)])
    y = numpy.ndarray(shape, x.dtype, x, 0, strides)
    y.setflags(write=False)
    return y


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
    return BroadcastTo(shape).apply((x,))[0]


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
