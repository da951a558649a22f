"""Pieces shared by the differentiable communication functions."""

import numpy

import chainerlite
from chainerlite import backend


def delegate_array(xp=numpy):
    """The 0-d array a function outputs when it has no real output.

    ``backward()`` on the variable holding it (a *delegate variable*) starts
    the backward pass that exchanges gradients with the other ranks.
    """
    return xp.zeros((), dtype=numpy.float32)


def dummy_input():
    """A delegate-like input that makes backward reach a node without inputs."""
    return chainerlite.Variable(delegate_array(), requires_grad=True)


def as_input(x):
    """``x`` as a Variable that requires grad (arrays included).

    An array input would not require grad, its node would never run
    backward, and the rank waiting for that gradient would hang.
    """
    if isinstance(x, chainerlite.Variable):
        return x
    return chainerlite.Variable(x, requires_grad=True)


def grads_or_zeros(grad_outputs, outputs_like):
    """Raw gradient arrays, with zeros where a gradient is None."""
    return tuple(
        backend.get_array_module(like).zeros_like(like) if g is None else g.array
        for g, like in zip(grad_outputs, outputs_like)
    )


def zero_grad_of(array):
    """A function that returns a zero gradient Variable shaped as ``array``.

    Backward of a node often owes an input only a zero gradient; this keeps
    its shape, dtype and device without keeping the array.
    """
    xp = backend.get_array_module(array)
    shape, dtype = array.shape, array.dtype
    return lambda: chainerlite.Variable(xp.zeros(shape, dtype=dtype))
