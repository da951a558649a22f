"""Digamma function, the derivative of log-gamma."""

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.math import _special
from chainerlite import utils
from chainerlite.utils import type_check


class DiGamma(function_node.FunctionNode):

    @property
    def label(self):
        return 'digamma'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        special = _special.special_module(
            backend.get_array_module(x), 'digamma')
        return utils.force_array(special.digamma(x), x.dtype),

    def backward(self, indexes, grad_outputs):
        from chainerlite.functions.math import polygamma
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        xp = backend.get_array_module(x)
        one = xp.ones(x.shape, dtype='i')
        return gy * polygamma.polygamma(one, x),


def digamma(x):
    """Elementwise digamma :math:`\\psi(x) = \\frac{d}{dx}\\log\\Gamma(x)`
    (needs SciPy on the CPU).

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.
    """
    return DiGamma().apply((x,))[0]
