"""Linear-chain conditional random field: loss and Viterbi decoding."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import variable
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import concat
from chainerlite.functions.array import get_item
from chainerlite.functions.array import pad
from chainerlite.functions.array import reshape
from chainerlite.functions.array import select_item
from chainerlite.functions.math import logsumexp
from chainerlite.functions.math import minmax
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _array(x):
    return x.array if isinstance(x, variable.Variable) else x


def _check_scores(cost, xs, name):
    # Chainer 7.8.1 reads xs[0].shape[1] and cost.shape[0] (an IndexError
    # for fewer axes) and asserts that they agree (an AssertionError).
    shapes = 'cost.shape {}, xs[0].shape {}'.format(
        cost.shape, xs[0].shape if xs else None
    )
    expect = 'cost: (n_label, n_label), xs[t]: (batch, n_label)'
    if not xs or xs[0].ndim < 2 or cost.ndim < 1:
        with type_check.invalid_as(IndexError):
            raise type_check.InvalidType(expect, '{}: {}'.format(name, shapes))
    if xs[0].shape[1] != cost.shape[0]:
        with type_check.invalid_as(AssertionError):
            raise type_check.InvalidType(expect, '{}: {}'.format(name, shapes))


def _check_viterbi_scores(xs):
    # As Chainer 7.8.1 fails: one step takes an argmax over axis 1 (at
    # least 2 axes); more steps read the batch sizes (an IndexError for a
    # 0-d step) and broadcast each step with the costs (2 axes).
    ndims = [x.ndim for x in xs]
    actual = 'argmax_crf1d: xs[t].ndim are {}'.format(ndims)
    expect = 'xs[t].ndim == 2 (or >= 2 for one step)'
    if len(xs) > 1 and 0 in ndims[:2]:
        with type_check.invalid_as(IndexError):
            raise type_check.InvalidType(expect, actual)
    if min(ndims, default=2) < 2 or (len(xs) > 1 and max(ndims) != 2):
        raise type_check.InvalidType(expect, actual)


def _check_batches(xs, name):
    sizes = [x.shape[0] for x in xs]
    if not sizes:
        raise ValueError('{}: xs must not be empty'.format(name))
    if any(a < b for a, b in zip(sizes, sizes[1:])):
        raise ValueError(
            '{}: the batch sizes of xs must not increase (sequences sorted '
            'by decreasing length), got {}'.format(name, sizes)
        )


def _pairwise(alpha, cost):
    # alpha (b, n) -> (b, n, n): alpha[i] + cost[i, j] for each pair.
    b, n = alpha.shape
    a = broadcast.broadcast_to(reshape.reshape(alpha, (b, n, 1)), (b, n, n))
    c = broadcast.broadcast_to(reshape.reshape(cost, (1, n, n)), (b, n, n))
    return a + c


def _pad_to(x, size):
    if x.shape[0] == size:
        return x
    return pad.pad(x, ((0, size - x.shape[0]),), 'constant')


def crf1d(cost, xs: typing.Sequence[Variable | NdArray], ys, reduce='mean') -> Variable:
    """Negative log-likelihood of a linear-chain conditional random field.

    For a sequence of label scores ``x_1 .. x_T`` and labels ``y_1 ..
    y_T``, the score of the labels is ``sum_t x_t[y_t] + sum_t
    cost[y_{t-1}, y_t]``, and the loss is ``log Z - score``, where ``Z``
    sums the exponentiated scores of all the label sequences (computed by
    the forward algorithm).

    The inputs are time-major: ``xs[t]`` holds the scores at time ``t`` of
    the sequences still running, which come first in the batch (sort the
    sequences by decreasing length, as
    :func:`~chainerlite.functions.transpose_sequence` needs too).

    Args:
        cost (Variable or numpy.ndarray or cupy.ndarray): Transition
            scores of shape ``(n_label, n_label)``; ``cost[i, j]`` scores
            label ``i`` followed by ``j``.
        xs (list of Variable or arrays): ``T`` score arrays of shapes
            ``(B_t, n_label)`` with ``B_0 >= B_1 >= ...``.
        ys (list of Variable or arrays): ``T`` int32 label arrays of shapes
            ``(B_t,)``.
        reduce (str): ``'mean'`` (the sum of the losses divided by the
            number of sequences) or ``'no'`` (one loss per sequence).

    Returns:
        Variable: The loss: a scalar, or of shape ``(B_0,)``.

    Raises:
        ValueError: If ``reduce`` is invalid or the batch sizes increase.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> cost = np.zeros((2, 2), np.float32)
        >>> xs = [np.zeros((1, 2), np.float32)] * 3
        >>> ys = [np.zeros(1, np.int32)] * 3
        >>> float(F.crf1d(cost, xs, ys).array)  # log(2 ** 3)
        2.0794...

    """
    if reduce not in ('mean', 'no'):
        raise ValueError(
            "crf1d: only 'mean' and 'no' are valid for reduce, got {!r}".format(reduce)
        )
    _check_scores(cost, xs, 'crf1d')
    _check_batches(xs, 'crf1d')
    n_label = cost.shape[0]
    batch = xs[0].shape[0]
    cost_flat = reshape.reshape(cost, (n_label * n_label,))
    alpha = xs[0]
    ended = []
    score = select_item.select_item(xs[0], _array(ys[0]))
    for t in range(1, len(xs)):
        b = xs[t].shape[0]
        if b < alpha.shape[0]:
            ended.append(alpha[b:])
            alpha = alpha[:b]
        alpha = logsumexp.logsumexp(_pairwise(alpha, cost), axis=1) + xs[t]
        y_prev, y = _array(ys[t - 1])[:b], _array(ys[t])
        step = select_item.select_item(xs[t], y) + get_item.get_item(
            cost_flat, y_prev * n_label + y
        )
        score = score + _pad_to(step, batch)
    alpha = concat.concat([alpha] + ended[::-1], axis=0)
    loss = logsumexp.logsumexp(alpha, axis=1) - score
    if reduce == 'mean':
        return sum_mod.sum(loss) / batch
    return loss


def argmax_crf1d(cost, xs: typing.Sequence[Variable | NdArray]):
    """Most probable label sequences of a linear-chain CRF (Viterbi).

    Args:
        cost (Variable or numpy.ndarray or cupy.ndarray): Transition
            scores of shape ``(n_label, n_label)``.
        xs (list of Variable or arrays): Time-major label scores, as in
            :func:`crf1d`.

    Returns:
        tuple: ``(score, path)``: a Variable of shape ``(B_0,)`` with the
        score of each best sequence, and a list of ``T`` int32 arrays of
        shapes ``(B_t,)`` with the best label at each time.

    Raises:
        ValueError: If the batch sizes increase.

    """
    _check_viterbi_scores(xs)
    _check_batches(xs, 'argmax_crf1d')
    xp = backend.get_array_module(_array(xs[0]))
    alpha = xs[0]
    ended = []
    pointers = []
    for t in range(1, len(xs)):
        b = xs[t].shape[0]
        if b < alpha.shape[0]:
            ended.append(alpha[b:])
            alpha = alpha[:b]
        scores = _pairwise(alpha, cost)
        pointers.append(xp.argmax(scores.array, axis=1))
        alpha = minmax.max(scores, axis=1) + xs[t]
    alpha = concat.concat([alpha] + ended[::-1], axis=0)
    best = xp.argmax(alpha.array, axis=1).astype('i')
    path = [best]
    for t in range(len(xs) - 1, 0, -1):
        b = xs[t].shape[0]
        prev = best.copy()
        prev[:b] = pointers[t - 1][xp.arange(b), best[:b]]
        best = prev
        path.append(best)
    path.reverse()
    path = [p[: x.shape[0]] for p, x in zip(path, xs)]
    return minmax.max(alpha, axis=1), path
