"""Elementwise squared error between two arrays."""

from chainerlite import function_node
from chainerlite import utils
from chainerlite.utils import type_check


class SquaredError(function_node.FunctionNode):
    """Elementwise squared error."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x0', 'x1'))
        x0_type, x1_type = in_types
        type_check.expect(
            x0_type.dtype.kind == 'f',
            x0_type.dtype == x1_type.dtype,
            x0_type.shape == x1_type.shape,
        )

    def forward(self, inputs):
        x0, x1 = inputs
        self.retain_inputs((0, 1))
        diff = x0 - x1
        return utils.force_array(diff * diff, x0.dtype),

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        gx0 = grad_outputs[0] * (x0 - x1) * 2.0
        return tuple(gx0 if i == 0 else -gx0 for i in indexes)


def squared_error(x0, x1):
    """Elementwise squared error function.

    .. math::
        y_i = (x_{0i} - x_{1i})^2

    Args:
        x0 (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        x1 (Variable or numpy.ndarray or cupy.ndarray): Input of the shape
            and dtype of ``x0``.

    Returns:
        Variable: The squared errors, with the shape and dtype of ``x0``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x0 = np.array([1., 2., 3.], np.float32)
        >>> x1 = np.array([1., 0., 0.], np.float32)
        >>> F.squared_error(x0, x1).array
        array([0., 4., 9.], dtype=float32)

    """
    return SquaredError().apply((x0, x1))[0]
