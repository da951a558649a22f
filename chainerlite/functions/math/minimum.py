"""Elementwise minimum of two variables."""

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import sum_to as sum_to_module
from chainerlite.utils import type_check


class Minimum(function_node.FunctionNode):
    """Elementwise minimum of two inputs (broadcast together)."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x1', 'x2'))
        type_check.expect(
            in_types[0].dtype.kind == 'f',
            in_types[0].dtype == in_types[1].dtype,
        )
        type_check.expect_broadcast_shapes(
            in_types[0].shape, in_types[1].shape)

    def forward(self, inputs):
        x1, x2 = inputs
        xp = backend.get_array_module(x1, x2)
        self.retain_inputs((0, 1))
        return utils.force_array(xp.minimum(x1, x2)),

    def backward(self, indexes, grad_outputs):
        x1, x2 = self.get_retained_inputs()
        gy, = grad_outputs
        # Ties send the gradient to x1.
        to_x1 = utils.force_array(x1.array <= x2.array)
        gx1 = gy * to_x1.astype(gy.dtype)
        gx2 = gy * (~to_x1).astype(gy.dtype)
        return (sum_to_module.sum_to(gx1, x1.shape),
                sum_to_module.sum_to(gx2, x2.shape))


def minimum(x1, x2):
    """Elementwise minimum of input variables.

    Where ``x1`` and ``x2`` are equal, the gradient goes to ``x1``.

    Args:
        x1 (Variable or numpy.ndarray or cupy.ndarray): Input variable of a
            floating point dtype.
        x2 (Variable or numpy.ndarray or cupy.ndarray): Input variable of the
            dtype of ``x1``. The shapes of ``x1`` and ``x2`` are broadcast
            together.

    Returns:
        Variable: Output variable with the broadcast shape and the dtype of
        the inputs.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x1 = np.array([0., 1., 2., 3.], np.float32)
        >>> x2 = np.array([3., 2., 1., 0.], np.float32)
        >>> F.minimum(x1, x2).array
        array([0., 1., 1., 0.], dtype=float32)

    """
    return Minimum().apply((x1, x2))[0]
