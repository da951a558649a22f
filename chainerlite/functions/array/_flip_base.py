"""Shared node of fliplr and flipud."""

from chainerlite import backend
from chainerlite import function_node
from chainerlite.utils import type_check


class FlipBase(function_node.FunctionNode):
    """Reversal of an array along a fixed axis.

    A subclass names the array routine (``_array_function``, e.g.
    ``'fliplr'``) and the fewest axes its input needs (``_min_ndim``). The
    gradient is the same reversal applied to the output gradient.
    """

    _array_function = None
    _min_ndim = None

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].ndim >= self._min_ndim)

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        return (getattr(xp, self._array_function)(x),)

    def backward(self, indexes, grad_outputs):
        return type(self)().apply(grad_outputs)
