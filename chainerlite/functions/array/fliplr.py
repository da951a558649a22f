"""Reversal of an array in the left/right direction (axis 1)."""

from chainerlite import backend
from chainerlite import function_node
from chainerlite.utils import type_check


class FlipLR(function_node.FunctionNode):
    """Reversal of an array along axis 1."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].ndim >= 2)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        return xp.fliplr(x),

    def backward(self, indexes, grad_outputs):
        return fliplr(grad_outputs[0]),


def fliplr(a):
    """Reverses the order of elements along axis 1 (left/right).

    Args:
        a (Variable or numpy.ndarray or cupy.ndarray): Input variable with at
            least two axes.

    Returns:
        Variable: Output variable of the shape of ``a``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
        >>> F.fliplr(x).array
        array([[3., 2., 1.],
               [6., 5., 4.]], dtype=float32)

    """
    return FlipLR().apply((a,))[0]
