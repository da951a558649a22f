"""Pieces shared by the normalization functions.

Their forward passes work on arrays in :func:`compute_dtype` (float16 data
is normalized in float32); their backward passes rebuild the statistics
from the retained inputs with differentiable operations, so that the
gradients can be differentiated again.
"""

import numpy

from chainerlite import function_node
from chainerlite.functions.array import broadcast
from chainerlite.functions.math import sum as sum_mod


def compute_dtype(*dtypes):
    """Returns the dtype normalizations of the given dtypes compute in."""
    return numpy.result_type(numpy.float32, *dtypes)


class AsType(function_node.FunctionNode):
    """Cast to a floating point dtype; its gradient is cast back."""

    def __init__(self, dtype):
        self.dtype = numpy.dtype(dtype)

    def forward(self, inputs):
        (x,) = inputs
        self._in_dtype = x.dtype
        return (x.astype(self.dtype),)

    def backward(self, indexes, grad_outputs):
        return (as_dtype(grad_outputs[0], self._in_dtype),)


def as_dtype(x, dtype):
    """Returns the Variable ``x`` cast to ``dtype`` (``x`` if it has it)."""
    if x.dtype == dtype:
        return x
    return AsType(dtype).apply((x,))[0]


def standardize(x, axis, eps):
    """Standardizes an array over some axes.

    Args:
        x (numpy.ndarray or cupy.ndarray): Input array.
        axis (tuple of int): Axes the statistics are computed over.
        eps (float): Added to the variance.

    Returns:
        tuple: ``(xhat, mean, var)`` in :func:`compute_dtype` of ``x``:
        ``(x - mean) / sqrt(var + eps)``, and the mean and (biased)
        variance, with the reduced axes kept.

    """
    x = x.astype(compute_dtype(x.dtype), copy=False)
    mean = x.mean(axis=axis, keepdims=True)
    xc = x - mean
    var = (xc * xc).mean(axis=axis, keepdims=True)
    return xc / (var + eps) ** 0.5, mean, var


def _mean(x, axis, m):
    # m == 0: a reduced axis is empty, so is the broadcast mean (any factor)
    return broadcast.broadcast_to(
        sum_mod.sum(x, axis=axis, keepdims=True) * (1.0 / max(m, 1)), x.shape
    )


def standardize_grad(x, gxhat, axis, eps):
    """Gradient of :func:`standardize` built from differentiable operations.

    Args:
        x (Variable): Input of the standardization.
        gxhat (Variable): Gradient of its output ``xhat`` (same shape and
            dtype as ``x``).
        axis (tuple of int): Axes the statistics are computed over.
        eps (float): Added to the variance.

    Returns:
        tuple of Variable: ``(gx, xhat)``, the gradient of ``x`` and the
        standardized input.

    """
    m = 1
    for a in axis:
        m *= x.shape[a]
    xc = x - _mean(x, axis, m)
    inv_std = (_mean(xc * xc, axis, m) + eps) ** -0.5
    xhat = xc * inv_std
    gx = inv_std * (gxhat - _mean(gxhat, axis, m) - xhat * _mean(gxhat * xhat, axis, m))
    return gx, xhat
