"""L2 normalization of vectors."""

from __future__ import annotations

import typing

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.array import broadcast
from chainerlite.functions.math import sum as sum_mod
from chainerlite.functions.normalization import _norm_utils
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class NormalizeL2(function_node.FunctionNode):
    """L2 normalization along some axes.

    Args:
        eps (float): Added to the norm.
        axis (int or tuple of int): Axes the norm is computed over.

    """

    def __init__(self, eps=1e-5, axis=1):
        self.eps = eps
        # None: every axis, as in Chainer
        self.axis = (
            (axis,) if isinstance(axis, int) else None if axis is None else tuple(axis)
        )

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        (x_type,) = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        for a in self.axis or ():
            # numpy's AxisError, as Chainer 7.8.1's sum over the axis
            with type_check.invalid_as(numpy.exceptions.AxisError):
                type_check.expect(-x_type.ndim <= a, a < x_type.ndim)

    def forward(self, inputs):
        self.retain_inputs((0,))
        (x,) = inputs
        xc = x.astype(_norm_utils.compute_dtype(x.dtype), copy=False)
        norm = (xc * xc).sum(axis=self.axis, keepdims=True) ** 0.5
        return ((xc / (norm + self.eps)).astype(x.dtype, copy=False),)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        dtype = _norm_utils.compute_dtype(x.dtype)
        xc, gy = (_norm_utils.as_dtype(v, dtype) for v in (x, grad_outputs[0]))
        norm = sum_mod.sum(xc * xc, axis=self.axis, keepdims=True) ** 0.5
        norm_eps = norm + self.eps
        x_gy = sum_mod.sum(xc * gy, axis=self.axis, keepdims=True)
        # The second term vanishes for zero vectors; a norm of one there
        # keeps it from being 0 / 0.
        xp = backend.get_array_module(x)
        safe_norm = norm + xp.asarray(norm.array == 0, dtype)
        gx = gy / broadcast.broadcast_to(
            norm_eps, x.shape
        ) - xc * broadcast.broadcast_to(
            x_gy / (norm_eps * norm_eps * safe_norm), x.shape
        )
        return (_norm_utils.as_dtype(gx, x.dtype),)


def normalize(x: Variable | NdArray, eps=1e-5, axis=1) -> Variable:
    """Normalizes vectors by their L2 norm (a.k.a. Euclidean norm).

    It divides ``x`` by its L2 norm along ``axis``, without reducing that
    axis. For a matrix ``x`` of shape ``(N, K)`` and ``axis=1``, each row is
    normalized:

    .. math::
        y_i = \\frac{x_i}{\\| x_i \\|_2 + \\epsilon}

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype; typically its first axis is the batch axis.
        eps (float): Added to the norm, to avoid a division by zero.
        axis (int or tuple of int): Axes along which the norm is computed.

    Returns:
        Variable: Output of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[3, 4], [0, 2]], np.float32)
        >>> F.normalize(x, eps=0).array
        array([[0.6, 0.8],
               [0. , 1. ]], dtype=float32)

    """
    return NormalizeL2(eps, axis).apply((x,))[0]
