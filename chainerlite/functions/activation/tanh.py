"""Hyperbolic tangent."""

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite._core import basic_math
from chainerlite.backends import cuda
from chainerlite.functions.activation import _kernels
from chainerlite.utils import type_check


class Tanh(function_node.FunctionNode):
    """Elementwise hyperbolic tangent."""

    @type_check.only_kinds('f')
    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self.retain_outputs((0,))
        if xp is cuda.cupy:
            return _kernels.tanh_fwd(x),
        return utils.force_array(xp.tanh(x)),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return grad_outputs[0] * (1 - y * y),

    def _backward_arrays(self, indexes, grad_outputs):
        y, = self._retained_output_data
        if isinstance(y, cuda.ndarray):
            return _kernels.tanh_bwd(y, grad_outputs[0]),
        return grad_outputs[0] * (basic_math.scalar_like(1, y) - y * y),


def tanh(x):
    """Elementwise hyperbolic tangent function.

    .. math::
        f(x) = \\tanh(x)

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([-1, 0, 2], np.float32)
        >>> F.tanh(x).array.round(4)
        array([-0.7616,  0.    ,  0.964 ], dtype=float32)

    """
    return Tanh().apply((x,))[0]
