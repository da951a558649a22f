"""Reversal of an array in the up/down direction (axis 0)."""

from chainerlite import backend
from chainerlite import function_node
from chainerlite.utils import type_check


class FlipUD(function_node.FunctionNode):
    """Reversal of an array along axis 0."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].ndim >= 1)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        return xp.flipud(x),

    def backward(self, indexes, grad_outputs):
        return flipud(grad_outputs[0]),


def flipud(a):
    """Reverses the order of elements along axis 0 (up/down).

    Args:
        a (Variable or numpy.ndarray or cupy.ndarray): Input variable with at
            least one axis.

    Returns:
        Variable: Output variable of the shape of ``a``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
        >>> F.flipud(x).array
        array([[4., 5., 6.],
               [1., 2., 3.]], dtype=float32)

    """
    return FlipUD().apply((a,))[0]
