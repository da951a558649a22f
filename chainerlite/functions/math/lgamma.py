"""Logarithm of the absolute value of the gamma function."""

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.math import _special
from chainerlite import utils
from chainerlite.utils import type_check


class LGamma(function_node.FunctionNode):

    @property
    def label(self):
        return 'lgamma'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        special = _special.special_module(
            backend.get_array_module(x), 'lgamma')
        return utils.force_array(special.gammaln(x), x.dtype),

    def backward(self, indexes, grad_outputs):
        from chainerlite.functions.math import digamma
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        return gy * digamma.digamma(x),


def lgamma(x):
    """Elementwise :math:`\\log |\\Gamma(x)|` (needs SciPy on the CPU).

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.
    """
    return LGamma().apply((x,))[0]
