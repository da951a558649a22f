"""Negative sampling loss (word2vec style)."""

from __future__ import annotations

import numpy
import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import get_item
from chainerlite.functions.array import reshape
from chainerlite.functions.loss import _logistic
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class NegativeSamplingFunction(function_node.FunctionNode):
    """Negative sampling loss.

    It draws the negative samples in forward; ``samples`` then holds the
    ``(N, sample_size + 1)`` array whose first column is the labels. Rows
    whose label is ``ignore_label`` count for nothing.
    """

    ignore_label = -1

    def __init__(self, sampler, sample_size, reduce='sum'):
        if reduce not in ('sum', 'no'):
            raise ValueError(
                "only 'sum' and 'no' are valid for 'reduce', but '%s' is given" % reduce
            )
        self.sampler = sampler
        self.sample_size = sample_size
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 't', 'W'))
        x_type, t_type, w_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 2,
            t_type.dtype.kind == 'i',
            t_type.ndim == 1,
            x_type.shape[0] == t_type.shape[0],
            w_type.dtype == x_type.dtype,
            w_type.ndim == 2,
        )
        # after the ranks, so that a 1-d x fails them (InvalidType, as in
        # Chainer) before shape[1] is read
        type_check.expect(w_type.shape[1] == x_type.shape[1])

    def forward(self, inputs):
        x, t, W = inputs
        xp = backend.get_array_module(x)
        # as Chainer's node: x, t and W are kept, backward reads them
        self.retain_inputs((0, 1, 2))
        # As in Chainer, the sampler draws the whole table and its first
        # column is then overwritten with the labels.
        samples = xp.asarray(self.sampler((len(t), self.sample_size + 1)))
        self.samples = samples.astype(numpy.int32)
        self.samples[:, 0] = t
        # The label column counts as log sigmoid(w.x), the negatives as
        # log sigmoid(-w.x); ignored rows count as nothing.
        self._sign = xp.ones(self.samples.shape, x.dtype)
        self._sign[:, 0] = -1
        scores = (W[self.samples] * x[:, None, :]).sum(axis=2)
        valid = _valid(t, self.ignore_label, x.dtype)
        loss = (_logistic.softplus_array(xp, scores * self._sign) * valid).sum(axis=1)
        if self.reduce == 'sum':
            loss = loss.sum()
        return (utils.force_array(loss, x.dtype),)

    forward_cpu = forward_gpu = forward

    def backward(self, indexes, grad_outputs):
        x, t, W = self.get_retained_inputs()
        (gloss,) = grad_outputs
        n, n_columns = self.samples.shape
        picked_shape = (n, n_columns, x.shape[1])
        if self.reduce == 'no':
            gloss = reshape.reshape(gloss, (n, 1))
        gloss = broadcast.broadcast_to(gloss, (n, n_columns))
        w = get_item.get_item(W, self.samples)
        xs = broadcast.broadcast_to(
            reshape.reshape(x, (n, 1, x.shape[1])), picked_shape
        )
        scores = sum_mod.sum(w * xs, axis=2)
        # d softplus(s z) / dz = s sigmoid(s z), for the sign s = +-1.
        gscore = (
            gloss
            * _logistic.sigmoid(scores * self._sign)
            * (self._sign * _valid(t.array, self.ignore_label, x.dtype))
        )
        gscore = broadcast.broadcast_to(
            reshape.reshape(gscore, (n, n_columns, 1)), picked_shape
        )
        grads = []
        if 0 in indexes:
            grads.append(sum_mod.sum(gscore * w, axis=1))
        if 1 in indexes:
            grads.append(None)
        if 2 in indexes:
            scatter = get_item.GetItemGrad((self.samples,), W.shape)
            grads.append(scatter.apply((gscore * xs,))[0])
        return tuple(grads)


def negative_sampling(
    x: Variable | NdArray,
    t: Variable | NdArray,
    W: Variable | NdArray,
    sampler,
    sample_size,
    reduce='sum',
    return_samples=False,
):
    """Negative sampling loss function.

    For an input vector :math:`x`, its label :math:`t` and a weight matrix
    :math:`W` whose rows are output embeddings, it computes

    .. math::
        \\ell = -\\log \\sigma(w_t^\\top x)
            - \\sum_{s \\in S} \\log \\sigma(-w_s^\\top x),

    where :math:`S` holds ``sample_size`` negative labels drawn by
    ``sampler`` and :math:`\\sigma` is the logistic sigmoid. It approximates
    a softmax over a large vocabulary cheaply (Mikolov et al., 2013).

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input vectors of shape
            ``(N, D)`` and a floating point dtype.
        t (Variable or numpy.ndarray or cupy.ndarray): Signed integer labels
            of shape ``(N,)``; a label ``-1`` marks an ignored sample (loss
            zero). They get no gradient.
        W (Variable or numpy.ndarray or cupy.ndarray): Output embeddings of
            shape ``(V, D)`` and the dtype of ``x``.
        sampler (callable): Called as ``sampler(shape)``, it returns an
            integer array of that shape holding negative labels, on the
            device of ``x`` (for example
            :meth:`chainerlite.utils.WalkerAlias.sample`).
        sample_size (int): Number of negative samples per input.
        reduce (str): ``'sum'`` sums the losses; ``'no'`` returns the loss of
            each sample. Other values raise :class:`ValueError`.
        return_samples (bool): If ``True``, also return the samples.

    Returns:
        Variable or tuple: The loss (a scalar if ``reduce`` is ``'sum'``,
        else of shape ``(N,)``; of the dtype of ``x``). If
        ``return_samples`` is ``True``, a tuple of the loss and the integer
        array of shape ``(N, sample_size + 1)`` whose first column holds the
        labels ``t`` and the others the negative samples.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.zeros((2, 3), np.float32)
        >>> t = np.array([0, 1], np.int32)
        >>> W = np.ones((4, 3), np.float32)
        >>> def sampler(shape):
        ...     return np.full(shape, 2, np.int32)
        >>> loss, samples = F.negative_sampling(
        ...     x, t, W, sampler, 2, reduce='no', return_samples=True)
        >>> loss.array.round(4)
        array([2.0794, 2.0794], dtype=float32)
        >>> samples
        array([[0, 2, 2],
               [1, 2, 2]], dtype=int32)

    """
    func = NegativeSamplingFunction(sampler, sample_size, reduce)
    loss = func.apply((x, t, W))[0]
    if return_samples:
        return loss, func.samples
    return loss


def _valid(t, ignore_label, dtype):
    # per row, 1 where the label counts and 0 where it is ignored
    return (t != ignore_label).astype(dtype)[:, None]
