"""DeCov loss: penalizes the covariance between hidden units."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import transpose
from chainerlite.functions.loss import _count
from chainerlite.functions.math import matmul
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class DeCov(function_node.FunctionNode):
    """DeCov loss (https://arxiv.org/abs/1511.06068)."""

    def __init__(self, reduce='half_squared_sum'):
        if reduce not in ('half_squared_sum', 'no'):
            raise ValueError(
                "only 'half_squared_sum' and 'no' are valid for 'reduce', "
                "but '%s' is given" % reduce
            )
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('h',))
        (h_type,) = in_types
        type_check.expect(h_type.dtype.kind == 'f', h_type.ndim == 2)

    def forward(self, inputs):
        (h,) = inputs
        xp = backend.get_array_module(h)
        self.retain_inputs((0,))
        n_units = h.shape[1]
        self._off_diagonal = (1 - xp.eye(n_units)).astype(h.dtype)
        centered = h - h.mean(axis=0, keepdims=True)
        covariance = centered.T.dot(centered)
        # zeroed, not multiplied by 0: a variance that overflowed float16
        # would give NaN
        xp.fill_diagonal(covariance, 0)
        covariance = _count.divide_by_count(covariance, len(h), h.dtype)
        if self.reduce == 'half_squared_sum':
            flat = covariance.ravel()
            return (utils.force_array(flat.dot(flat) * h.dtype.type(0.5), h.dtype),)
        return (utils.force_array(covariance, h.dtype),)

    def backward(self, indexes, grad_outputs):
        (h,) = self.get_retained_inputs()
        (gloss,) = grad_outputs
        # an empty batch: inf, as NumPy's division gives in Chainer (the
        # gradient is then empty, not a ZeroDivisionError)
        scale = 1.0 / len(h) if len(h) else float('inf')
        mean = sum_mod.sum(h, axis=0, keepdims=True) * scale
        centered = h - broadcast.broadcast_to(mean, h.shape)
        if self.reduce == 'half_squared_sum':
            covariance = matmul.matmul(centered, centered, transa=True) * (
                self._off_diagonal * scale
            )
            gcov = broadcast.broadcast_to(gloss, covariance.shape) * covariance
        else:
            gcov = gloss * self._off_diagonal
        gcov = gcov + transpose.transpose(gcov)
        return (matmul.matmul(centered, gcov) * scale,)


def decov(h: Variable | NdArray, reduce='half_squared_sum') -> Variable:
    """DeCov loss of hidden activations.

    For a batch :math:`h` of shape ``(N, M)``, let :math:`C` be the
    covariance matrix of its columns with a zeroed diagonal:

    .. math::
        C_{ij} = \\frac{1}{N} \\sum_n (h_{ni} - \\bar{h}_i)
            (h_{nj} - \\bar{h}_j) \\quad (i \\ne j), \\qquad C_{ii} = 0.

    The loss :math:`\\frac{1}{2} \\|C\\|_F^2` discourages correlated units
    (see https://arxiv.org/abs/1511.06068).

    Args:
        h (Variable or numpy.ndarray or cupy.ndarray): Activations of shape
            ``(N, M)`` and a floating point dtype; the first axis is the
            batch.
        reduce (str): ``'half_squared_sum'`` returns
            :math:`\\frac{1}{2} \\sum_{i, j} C_{ij}^2`; ``'no'`` returns the
            matrix :math:`C`. Other values raise :class:`ValueError`.

    Returns:
        Variable: A scalar, or the ``(M, M)`` matrix if ``reduce`` is
        ``'no'``; of the dtype of ``h``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> h = np.array([[1., 2.], [-1., -2.]], np.float32)
        >>> F.decov(h, reduce='no').array
        array([[0., 2.],
               [2., 0.]], dtype=float32)
        >>> F.decov(h).array
        array(4., dtype=float32)

    """
    return DeCov(reduce).apply((h,))[0]
