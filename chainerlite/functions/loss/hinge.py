"""Hinge loss for multi-class classification (one-vs-all)."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import where
from chainerlite.functions.loss import _count
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Hinge(function_node.FunctionNode):
    """Hinge loss."""

    def __init__(self, norm='L1', reduce='mean'):
        if norm not in ('L1', 'L2'):
            raise NotImplementedError("norm should be either 'L1' or 'L2'")
        if reduce not in ('mean', 'no'):
            raise ValueError(
                "only 'mean' and 'no' are valid for 'reduce', but '%s' is "
                'given' % reduce
            )
        self.norm = norm
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            t_type.dtype.kind == 'i',
            x_type.ndim == 2,
            t_type.ndim == 1,
            x_type.shape[0] == t_type.shape[0],
        )

    def forward(self, inputs):
        x, t = inputs
        # as Chainer's node: x and t are kept, backward reads both
        self.retain_inputs((0, 1))
        margin = _margin(x, t)
        loss = margin if self.norm == 'L1' else margin * margin
        if self.reduce == 'mean':
            loss = _count.divide_by_count(loss.sum(), len(x), x.dtype)
        return (utils.force_array(loss, x.dtype),)

    def backward(self, indexes, grad_outputs):
        x, t = self.get_retained_inputs()
        xp = backend.get_array_module(x.array)
        rows = (xp.arange(len(x)), t.array)
        # The margin sign * x + 1 is positive where x > -1 off the true
        # class and x < 1 at it (exactly so in floating point: x + 1 is
        # exact for x in [-2, -1/2]).
        active = x.array > -1
        active[rows] = x.array[rows] < 1
        active = active.astype(x.dtype)
        # a NaN score gets a NaN gradient, as in Chainer
        active[xp.isnan(x.array)] = xp.nan
        (gy,) = grad_outputs
        if self.reduce == 'mean':
            gy = broadcast.broadcast_to(gy / len(x), x.shape)
        sign = xp.ones_like(x.array)
        sign[rows] = -1
        if self.norm == 'L1':
            # the slope at an inactive true class is +0 (0 - 0, not -0),
            # so a zero gradient's sign is Chainer's
            return gy * (active * sign + 0), None
        # 2 gy times the margin with the class's sign: at an inactive
        # score the margin is a zero of the sign (also -0 at the true
        # class, as in Chainer), wherever x is (x * 0 could be NaN)
        margin = (x * sign + 1) * sign
        margin = where.where(active != 0, margin, sign * 0)
        return (2 * gy) * margin, None


def _margin(x, t):
    # sign * x + 1 (sign -1 at the true class, +1 elsewhere), clipped at 0
    xp = backend.get_array_module(x)
    sign = xp.ones_like(x)
    sign[xp.arange(len(t)), t] = -1
    return xp.maximum(sign * x + x.dtype.type(1), 0)


def hinge(
    x: Variable | NdArray, t: Variable | NdArray, norm='L1', reduce='mean'
) -> Variable:
    """Hinge loss for multi-class classification (one-vs-all).

    For a batch of :math:`N` score vectors over :math:`K` classes,

    .. math::
        \\ell_{nk} = \\left[\\max\\left(0, 1 - \\delta\\{t_n = k\\}
            x_{nk}\\right)\\right]^p,

    where :math:`\\delta\\{t_n = k\\}` is :math:`1` at the true class and
    :math:`-1` elsewhere, and :math:`p` is :math:`1` for ``'L1'`` and
    :math:`2` for ``'L2'``. With ``reduce='mean'`` the result is
    :math:`\\frac{1}{N} \\sum_{n, k} \\ell_{nk}`.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Scores of shape
            ``(N, K)``, of a floating point dtype.
        t (Variable or numpy.ndarray or cupy.ndarray): Signed integer labels
            of shape ``(N,)``, each in ``[0, K)``. They get no gradient.
        norm (str): ``'L1'`` or ``'L2'``; other values raise
            :class:`NotImplementedError`.
        reduce (str): ``'mean'`` or ``'no'``; other values raise
            :class:`ValueError`.

    Returns:
        Variable: A scalar if ``reduce`` is ``'mean'``, else the losses
        :math:`\\ell_{nk}` of shape ``(N, K)``; of the dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[2., -1.], [0.5, 0.]], np.float32)
        >>> t = np.array([0, 1], np.int32)
        >>> F.hinge(x, t).array
        array(1.25, dtype=float32)
        >>> F.hinge(x, t, reduce='no').array
        array([[0. , 0. ],
               [1.5, 1. ]], dtype=float32)

    """
    return Hinge(norm, reduce).apply((x, t))[0]
