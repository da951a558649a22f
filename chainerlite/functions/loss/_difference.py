"""Base of the losses of the difference of two arrays of one shape."""

from chainerlite import function_node
from chainerlite.utils import type_check


class DifferenceLoss(function_node.FunctionNode):
    """Loss of ``x0 - x1``, for two floating point arrays of one shape.

    A subclass implements ``forward`` and ``_grad_x0(gy)``, the gradient
    with respect to ``x0`` (as a Variable); the gradient with respect to
    ``x1`` is its negation.
    """

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x0', 'x1'))
        x0_type, x1_type = in_types
        type_check.expect(
            x0_type.dtype.kind == 'f',
            x0_type.dtype == x1_type.dtype,
            x0_type.shape == x1_type.shape,
        )

    def backward(self, indexes, grad_outputs):
        gx0 = self._grad_x0(grad_outputs[0])
        return tuple(gx0 if i == 0 else -gx0 for i in indexes)
