"""Cross-covariance penalty between two sets of features."""

from __future__ import annotations

import typing

from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import broadcast
from chainerlite.functions.loss import _count
from chainerlite.functions.math import matmul
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _center(x):
    """Subtracts the mean over the batch axis from a (N, M) variable."""
    mean = sum_mod.sum(x, axis=0, keepdims=True) * (1.0 / len(x))
    return x - broadcast.broadcast_to(mean, x.shape)


class CrossCovariance(function_node.FunctionNode):
    """Cross-covariance loss."""

    def __init__(self, reduce='half_squared_sum'):
        if reduce not in ('half_squared_sum', 'no'):
            raise ValueError(
                "only 'half_squared_sum' and 'no' are valid for 'reduce', "
                "but '%s' is given" % reduce
            )
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('y', 'z'))
        y_type, z_type = in_types
        type_check.expect(
            y_type.dtype.kind == 'f',
            z_type.dtype == y_type.dtype,
            y_type.ndim == 2,
            z_type.ndim == 2,
            y_type.shape[0] == z_type.shape[0],
        )

    def forward(self, inputs):
        y, z = inputs
        self.retain_inputs((0, 1))
        y_centered = y - y.mean(axis=0, keepdims=True)
        z_centered = z - z.mean(axis=0, keepdims=True)
        covariance = _count.divide_by_count(
            y_centered.T.dot(z_centered), len(y), y.dtype
        )
        if self.reduce == 'half_squared_sum':
            flat = covariance.ravel()
            return (utils.force_array(flat.dot(flat) * y.dtype.type(0.5), y.dtype),)
        return (utils.force_array(covariance, y.dtype),)

    def backward(self, indexes, grad_outputs):
        y, z = self.get_retained_inputs()
        (gloss,) = grad_outputs
        scale = 1.0 / len(y)
        y_centered = _center(y)
        z_centered = _center(z)
        if self.reduce == 'half_squared_sum':
            covariance = matmul.matmul(y_centered, z_centered, transa=True) * scale
            gcov = broadcast.broadcast_to(gloss, covariance.shape) * covariance
        else:
            gcov = gloss
        grads = []
        if 0 in indexes:
            grads.append(matmul.matmul(z_centered, gcov, transb=True) * scale)
        if 1 in indexes:
            grads.append(matmul.matmul(y_centered, gcov) * scale)
        return tuple(grads)


def cross_covariance(y: Variable | NdArray, z, reduce='half_squared_sum') -> Variable:
    """Cross-covariance penalty between two sets of features.

    For batches :math:`y` of shape ``(N, M)`` and :math:`z` of shape
    ``(N, K)``, the cross-covariance matrix is

    .. math::
        C_{mk} = \\frac{1}{N} \\sum_n (y_{nm} - \\bar{y}_m)
            (z_{nk} - \\bar{z}_k),

    where the bars are means over the batch. Minimizing
    :math:`\\frac{1}{2} \\|C\\|_F^2` decorrelates ``y`` from ``z`` (see
    https://arxiv.org/abs/1412.6583v3).

    Args:
        y (Variable or numpy.ndarray or cupy.ndarray): Features of shape
            ``(N, M)`` and a floating point dtype; the first axis is the
            batch.
        z (Variable or numpy.ndarray or cupy.ndarray): Features of shape
            ``(N, K)`` and the dtype of ``y``.
        reduce (str): ``'half_squared_sum'`` returns
            :math:`\\frac{1}{2} \\sum_{m, k} C_{mk}^2`; ``'no'`` returns the
            matrix :math:`C`. Other values raise :class:`ValueError`.

    Returns:
        Variable: A scalar, or the ``(M, K)`` matrix if ``reduce`` is
        ``'no'``; of the dtype of ``y``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> y = np.array([[1.], [-1.]], np.float32)
        >>> z = np.array([[2., 0.], [-2., 0.]], np.float32)
        >>> F.cross_covariance(y, z, reduce='no').array
        array([[2., 0.]], dtype=float32)
        >>> F.cross_covariance(y, z).array
        array(2., dtype=float32)

    """
    return CrossCovariance(reduce).apply((y, z))[0]
