"""Triplet loss of anchor, positive and negative samples."""

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import reshape
from chainerlite.functions.loss import _count
from chainerlite.utils import type_check


class Triplet(function_node.FunctionNode):
    """Triplet loss."""

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
        type_check._argname(in_types, ('anchor', 'positive', 'negative'))
        anchor_type, positive_type, negative_type = in_types
        # The exception types are Chainer 7.8.1's: its check reads
        # anchor.shape[0] (IndexError for 0-d), its forward sums over axis
        # 1 (AxisError for 1-d).
        with type_check.invalid_as(IndexError):
            type_check.expect(anchor_type.ndim >= 1)
        type_check.expect(
            anchor_type.dtype.kind == 'f',
            positive_type.dtype == anchor_type.dtype,
            negative_type.dtype == anchor_type.dtype,
            positive_type.shape == anchor_type.shape,
            negative_type.shape == anchor_type.shape,
            anchor_type.shape[0] > 0,
        )
        with type_check.invalid_as(numpy.exceptions.AxisError):
            type_check.expect(anchor_type.ndim >= 2)

    def forward(self, inputs):
        anchor, positive, negative = inputs
        xp = backend.get_array_module(anchor)
        self.retain_inputs((0, 1, 2))
        dtype = anchor.dtype
        to_positive = anchor - positive
        to_negative = anchor - negative
        dist = (
            (to_positive * to_positive).sum(axis=1)
            - (to_negative * to_negative).sum(axis=1)
            + dtype.type(self.margin)
        )
        self._active = (dist > 0).astype(dtype)
        loss = xp.maximum(dist, 0)
        if self.reduce == 'mean':
            loss = _count.divide_by_count(loss.sum(), len(anchor), dtype)
        return (utils.force_array(loss, dtype),)

    def backward(self, indexes, grad_outputs):
        anchor, positive, negative = self.get_retained_inputs()
        (gy,) = grad_outputs
        n = len(anchor)
        dist_shape = self._active.shape
        if self.reduce == 'mean':
            gy = broadcast.broadcast_to(gy * (1.0 / n), dist_shape)
        # the distances' shape with the summed axis 1 kept
        kept = dist_shape[:1] + (1,) + dist_shape[1:]
        scale = broadcast.broadcast_to(
            reshape.reshape(gy * (2.0 * self._active), kept), anchor.shape
        )
        grads = []
        if 0 in indexes:
            grads.append(scale * (negative - positive))
        if 1 in indexes:
            grads.append(scale * (positive - anchor))
        if 2 in indexes:
            grads.append(scale * (anchor - negative))
        return tuple(grads)


def triplet(anchor, positive, negative, margin=0.2, reduce='mean'):
    """Triplet loss.

    For the :math:`n`-th triplet of :math:`K`-dimensional vectors,

    .. math::
        L_n = \\max\\left(\\|a_n - p_n\\|_2^2 - \\|a_n - n_n\\|_2^2
            + \\mathrm{margin}, 0\\right),

    which pulls the anchor :math:`a_n` towards the positive sample
    :math:`p_n` and pushes it from the negative sample :math:`n_n`.

    Args:
        anchor (Variable or numpy.ndarray or cupy.ndarray): Anchors of shape
            ``(N, K)`` and a floating point dtype (more axes after ``K``
            hold more triplets of each sample, as in Chainer 7.8.1).
        positive (Variable or numpy.ndarray or cupy.ndarray): Positive
            samples, of the shape and dtype of ``anchor``.
        negative (Variable or numpy.ndarray or cupy.ndarray): Negative
            samples, of the shape and dtype of ``anchor``.
        margin (float): Positive margin; otherwise :class:`ValueError` is
            raised.
        reduce (str): ``'mean'`` sums :math:`L_n` and divides by ``N``
            (the average over the triplets of 2-d inputs), ``'no'`` returns
            them. Other values raise :class:`ValueError`.

    Returns:
        Variable: A scalar if ``reduce`` is ``'mean'``, else the losses of
        shape ``(N,)`` (``anchor``'s shape without axis 1); of the dtype of
        ``anchor``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> a = np.array([[0., 0.], [0., 0.]], np.float32)
        >>> p = np.array([[0.5, 0.], [0., 0.]], np.float32)
        >>> n = np.array([[0., 0.25], [2., 0.]], np.float32)
        >>> F.triplet(a, p, n, margin=0.5, reduce='no').array
        array([0.6875, 0.    ], dtype=float32)

    """
    return Triplet(margin, reduce).apply((anchor, positive, negative))[0]
