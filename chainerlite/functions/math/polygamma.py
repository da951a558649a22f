"""Polygamma functions, the derivatives of digamma."""

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.math import _special
from chainerlite import utils
from chainerlite.utils import type_check


class PolyGamma(function_node.FunctionNode):

    @property
    def label(self):
        return 'polygamma'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('n', 'x'))
        n_type, x_type = in_types
        type_check.expect(
            n_type.dtype.kind == 'i',
            x_type.dtype.kind == 'f',
            n_type.shape == x_type.shape)

    def forward(self, inputs):
        n, x = inputs
        self.retain_inputs((0, 1))
        special = _special.special_module(
            backend.get_array_module(x), 'polygamma')
        return utils.force_array(special.polygamma(n, x), x.dtype),

    def backward(self, indexes, grad_outputs):
        n, x = self.get_retained_inputs()
        gy, = grad_outputs
        return None, gy * polygamma(n.array + 1, x)


def polygamma(n, x):
    """Elementwise polygamma :math:`\\psi^{(n)}(x)` (needs SciPy on the CPU).

    Args:
        n (Variable or numpy.ndarray or cupy.ndarray): Non-negative integer
            orders, of the shape of ``x``.
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.
    """
    return PolyGamma().apply((n, x))[0]
