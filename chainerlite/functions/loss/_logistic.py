"""Logistic sigmoid and softplus, shared by the losses built on them.

The sigmoid node is private to the loss functions so that their gradients
can be differentiated again without depending on other modules.
"""

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils


def sigmoid_array(xp, x):
    """Computes ``1 / (1 + exp(-x))`` on an array, without overflow.

    Args:
        xp (module): ``numpy`` or ``cupy``.
        x (numpy.ndarray or cupy.ndarray): Input.

    Returns:
        numpy.ndarray or cupy.ndarray: The sigmoid, with the dtype of ``x``.

    """
    half = x.dtype.type(0.5)
    return utils.force_array(xp.tanh(x * half) * half + half, x.dtype)


def softplus_array(xp, x):
    """Computes ``log(1 + exp(x))`` on an array, without overflow.

    Args:
        xp (module): ``numpy`` or ``cupy``.
        x (numpy.ndarray or cupy.ndarray): Input.

    Returns:
        numpy.ndarray or cupy.ndarray: The softplus, with the dtype of ``x``.

    """
    y = xp.maximum(x, 0) + xp.log1p(xp.exp(-abs(x)))
    return utils.force_array(y, x.dtype)


class Sigmoid(function_node.FunctionNode):
    """Logistic sigmoid ``1 / (1 + exp(-x))``, differentiable any times."""

    def forward(self, inputs):
        (x,) = inputs
        self.retain_outputs((0,))
        return (sigmoid_array(backend.get_array_module(x), x),)

    def backward(self, indexes, grad_outputs):
        (y,) = self.get_retained_outputs()
        return (grad_outputs[0] * y * (1.0 - y),)


def sigmoid(x):
    """Applies :class:`Sigmoid` to a variable or array.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input.

    Returns:
        Variable: The sigmoid of ``x``.

    """
    return Sigmoid().apply((x,))[0]
