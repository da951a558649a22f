"""Leaky rectified linear unit."""

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.utils import type_check


class LeakyReLU(function_node.FunctionNode):
    """Leaky rectified linear unit."""

    def __init__(self, slope=0.2):
        self.slope = slope

    @type_check.only_kinds('f')
    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        return utils.force_array(xp.where(x >= 0, x, x * self.slope),
                                 x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        xp = backend.get_array_module(x.array)
        dtype = x.dtype.type
        coef = xp.where(x.array >= 0, dtype(1), dtype(self.slope))
        return grad_outputs[0] * utils.force_array(coef, x.dtype),


def leaky_relu(x, slope=0.2):
    """Leaky rectified linear unit function.

    .. math::
        f(x) = \\begin{cases} x & (x \\ge 0) \\\\
                              a x & (x < 0) \\end{cases}

    where :math:`a` is ``slope``.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        slope (float): Slope :math:`a` of the negative part.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[-1, 0], [2, -3]], np.float32)
        >>> F.leaky_relu(x, slope=0.2).array
        array([[-0.2,  0. ],
               [ 2. , -0.6]], dtype=float32)

    """
    return LeakyReLU(slope).apply((x,))[0]
