"""Clipped rectified linear unit, and ReLU6."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.backends import cuda
from chainerlite.functions.activation import _kernels
from chainerlite.utils import _chainer_errors
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class ClippedReLU(function_node.FunctionNode):
    """Clipped rectified linear unit: ``min(max(0, x), z)``."""

    def __init__(self, z):
        if not isinstance(z, float):
            raise TypeError('z must be float value')
        if not z > 0:
            # Chainer 7.8.1 asserts it: both types
            raise _chainer_errors.AssertedValueError(
                'clipped_relu: z must be positive, got {}'.format(z)
            )
        self.cap = z

    check_type_forward = type_check.declare_kinds(x='f')

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        if xp is cuda.cupy:
            return (_kernels.clipped_relu_fwd(x, x.dtype.type(self.cap)),)
        # max then min, not clip: at a tie NumPy's maximum returns its
        # second operand for float32/64 and its first for float16, so -0
        # stays -0 except in float16, as in Chainer 7.8.1 (NumPy's clip
        # keeps it in every dtype)
        y = xp.minimum(xp.maximum(x.dtype.type(0), x), self.cap)
        return (utils.force_array(y, x.dtype),)

    def backward(self, indexes, grad_outputs):
        return ClippedReLUGrad2(self.inputs[0].data, self.cap).apply(grad_outputs)


class ClippedReLUGrad2(function_node.FunctionNode):
    """Gradient of the clipped ReLU: ``gy`` where ``0 < x < z``, 0
    elsewhere; linear in its one input, the output gradient ``gy``.

    Args:
        x (numpy.ndarray or cupy.ndarray): Input of the clipped ReLU.
        z (float): Its clipping value.
    """

    def __init__(self, x, z):
        self.x = x
        self.cap = z

    check_type_forward = type_check.declare_kinds(gy='f')

    def forward_cpu(self, inputs):
        (gy,) = inputs
        x = self.x
        inside = (0 < x) & (x < self.cap)
        return (utils.force_array(gy * utils.force_array(inside, x.dtype)),)

    def forward_gpu(self, inputs):
        (gy,) = inputs
        return (_kernels.clipped_relu_bwd(self.x, gy, self.x.dtype.type(self.cap)),)

    def backward(self, indexes, grad_outputs):
        return ClippedReLUGrad2(self.x, self.cap).apply(grad_outputs)


class ClippedReLUGrad3(ClippedReLUGrad2):
    """Chainer's gradient node of the clipped ReLU for cuDNN, which also
    takes the output ``y``: the same gradient as :class:`ClippedReLUGrad2`
    (chainerlite calls no cuDNN), ``y`` kept."""

    def __init__(self, x, y, z):
        super().__init__(x, z)
        self.y = y

    def backward(self, indexes, grad_outputs):
        return ClippedReLUGrad3(self.x, self.y, self.cap).apply(grad_outputs)


def clipped_relu(x: Variable | NdArray, z=20.0) -> Variable:
    """Clipped rectified linear unit function.

    For a clipping value :math:`z > 0` it computes

    .. math::
        \\mathrm{ClippedReLU}(x, z) = \\min(\\max(0, x), z).

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        z (float): Clipping value; it must be a positive ``float``.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    Raises:
        TypeError: If ``z`` is not a ``float``.
        ValueError: If ``z`` is not positive.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([-3, 0.5, 4, 12], np.float32)
        >>> F.clipped_relu(x, z=10.0).array
        array([ 0. ,  0.5,  4. , 10. ], dtype=float32)

    """
    return ClippedReLU(z).apply((x,))[0]


def relu6(x: Variable | NdArray) -> Variable:
    """Rectified linear unit function clipped at 6.

    .. math::
        \\mathrm{ReLU6}(x) = \\min(\\max(0, x), 6).

    It is :func:`clipped_relu` with ``z=6.0``.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([-20, -2, 0, 2, 4, 10, 100], np.float32)
        >>> F.relu6(x).array
        array([0., 0., 0., 2., 4., 6., 6.], dtype=float32)

    """
    return ClippedReLU(6.0).apply((x,))[0]
