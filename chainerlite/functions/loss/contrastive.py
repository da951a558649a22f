"""Contrastive loss of pairs of samples."""

from __future__ import annotations

import numpy
import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import reshape
from chainerlite.functions.loss import _count
from chainerlite.functions.math import maximum
from chainerlite.functions.math import sqrt
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Contrastive(function_node.FunctionNode):
    """Contrastive loss."""

    def __init__(self, margin, reduce='mean'):
        if margin <= 0:
            raise ValueError('margin should be positive value.')
        if reduce not in ('mean', 'no'):
            raise ValueError(
                "only 'mean' and 'no' are valid for 'reduce', but '%s' is "
                'given' % reduce
            )
        self.margin = margin
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x0', 'x1', 'y'))
        x0_type, x1_type, y_type = in_types
        type_check.expect(
            x0_type.dtype.kind == 'f',
            x0_type.dtype == x1_type.dtype,
            y_type.dtype.kind == 'i',
            x0_type.ndim == 2,
            y_type.ndim == 1,
            x0_type.shape == x1_type.shape,
            x1_type.shape[0] == y_type.shape[0],
            x1_type.shape[0] > 0,
        )

    def forward(self, inputs):
        x0, x1, y = inputs
        xp = backend.get_array_module(x0)
        # as Chainer's node: all three are kept, backward reads them
        self.retain_inputs((0, 1, 2))
        dtype = x0.dtype
        similar = y.astype(dtype)
        diff = x0 - x1
        dist_sq = (diff * diff).sum(axis=1)
        push = xp.maximum(dtype.type(self.margin) - xp.sqrt(dist_sq), 0)
        loss = (
            similar * dist_sq + (dtype.type(1) - similar) * push * push
        ) * dtype.type(0.5)
        if self.reduce == 'mean':
            # Chainer computes the loss in float64 (its labels are int32):
            # float16's is summed in float32, not to overflow past 65504
            total = loss.sum(dtype=_count.summing_dtype(dtype))
            loss = _count.divide_by_count(total, len(x0), dtype)
        return (utils.force_array(loss, dtype),)

    def backward(self, indexes, grad_outputs):
        x0, x1, y = self.get_retained_inputs()
        xp = backend.get_array_module(x0.array)
        similar = y.array.astype(x0.dtype)[:, None]
        (gy,) = grad_outputs
        n = len(x0)
        if self.reduce == 'mean':
            gy = broadcast.broadcast_to(gy * (1.0 / n), (n,))
        gy = reshape.reshape(gy, (n, 1))
        diff = x0 - x1
        dist = sqrt.sqrt(sum_mod.sum(diff * diff, axis=1, keepdims=True))
        # As Chainer: the pull of a similar pair and the push of a
        # dissimilar one are both computed for every pair (a NaN or an
        # infinite difference makes either NaN); the push is the maximum of
        # margin - dist and 0 (at a tie its own gradient goes to margin -
        # dist) and divides by the distance floored at a small eps (larger
        # in float16).
        push = maximum.maximum(self.margin - dist, xp.zeros(dist.shape, x0.dtype))
        eps = 5e-3 if x0.dtype == numpy.float16 else 1e-7
        floored = maximum.maximum(dist, xp.full(dist.shape, eps, x0.dtype))
        pull = broadcast.broadcast_to(gy * similar, x0.shape) * diff
        push = broadcast.broadcast_to(gy * (1.0 - similar) * push, x0.shape)
        gx0 = pull - push * (diff / broadcast.broadcast_to(floored, x0.shape))
        grads = []
        if 0 in indexes:
            grads.append(gx0)
        if 1 in indexes:
            grads.append(-gx0)
        if 2 in indexes:
            grads.append(None)
        return tuple(grads)


def contrastive(
    x0: Variable | NdArray,
    x1: Variable | NdArray,
    y: Variable | NdArray,
    margin=1,
    reduce='mean',
) -> Variable:
    """Contrastive loss of pairs of samples.

    A pair is labeled :math:`1` when its samples are similar and :math:`0`
    when they are not. For the :math:`n`-th pair of :math:`K`-dimensional
    vectors,

    .. math::
        L_n = \\frac{1}{2} \\left(y_n d_n^2
            + (1 - y_n) \\max(\\mathrm{margin} - d_n, 0)^2\\right),

    where :math:`d_n = \\| x_{0n} - x_{1n} \\|_2`.

    Args:
        x0 (Variable or numpy.ndarray or cupy.ndarray): First samples, of
            shape ``(N, K)`` and a floating point dtype, ``N > 0``.
        x1 (Variable or numpy.ndarray or cupy.ndarray): Second samples, of
            the shape and dtype of ``x0``.
        y (Variable or numpy.ndarray or cupy.ndarray): Signed integer labels
            of shape ``(N,)``, each ``0`` or ``1``. They get no gradient.
        margin (float): Positive margin; otherwise :class:`ValueError` is
            raised.
        reduce (str): ``'mean'`` averages :math:`L_n` over the pairs,
            ``'no'`` returns them. Other values raise :class:`ValueError`.

    Returns:
        Variable: A scalar if ``reduce`` is ``'mean'``, else the losses of
        shape ``(N,)``; of the dtype of ``x0``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x0 = np.array([[0., 0.], [0., 0.]], np.float32)
        >>> x1 = np.array([[0.6, 0.8], [0.3, 0.4]], np.float32)
        >>> y = np.array([1, 0], np.int32)
        >>> F.contrastive(x0, x1, y, reduce='no').array
        array([0.5  , 0.125], dtype=float32)

    """
    return Contrastive(margin, reduce).apply((x0, x1, y))[0]
