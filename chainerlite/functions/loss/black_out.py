"""BlackOut loss."""

from __future__ import annotations

import typing

import numpy

from chainerlite import backend
from chainerlite import variable
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import cast
from chainerlite.functions.array import get_item
from chainerlite.functions.array import reshape
from chainerlite.functions.math import exponential
from chainerlite.functions.math import logarithm_1p
from chainerlite.functions.math import logsumexp
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def black_out(
    x: Variable | NdArray, t, W: Variable | NdArray, samples, reduce='mean'
) -> Variable:
    """BlackOut loss function (Ji et al., ICLR 2016).

    For each example, the target word ``t`` and ``K`` sampled words are
    scored with ``s_k = W[k] . x``; with ``p_k`` the softmax of these
    ``K + 1`` scores, the loss is

    .. math::
        -\\log p_t - \\sum_{k \\in \\mathrm{samples}} \\log (1 - p_k).

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Inputs of shape
            ``(n, in_size)``.
        t (Variable or numpy.ndarray or cupy.ndarray): Target words, int32
            of shape ``(n,)``.
        W (Variable or numpy.ndarray or cupy.ndarray): Word embeddings of
            shape ``(n_vocab, in_size)``.
        samples (Variable or numpy.ndarray or cupy.ndarray): Negative
            samples, int32 of shape ``(n, K)``, or ``(K,)`` for negatives
            shared by every example.
        reduce (str): ``'mean'`` (the mean over the batch) or ``'no'``.

    Returns:
        Variable: The loss: a scalar, or of shape ``(n,)``.

    Raises:
        ValueError: If ``reduce`` is invalid.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.ones((1, 2), np.float32)
        >>> W = np.zeros((3, 2), np.float32)
        >>> t, samples = np.array([0], 'i'), np.array([[1, 2]], 'i')
        >>> float(F.black_out(x, t, W, samples).array)  # log 3 - 2 log 2/3
        1.90954...

    """
    if reduce not in ('mean', 'no'):
        raise ValueError(
            "black_out: only 'mean' and 'no' are valid for reduce, got {!r}".format(
                reduce
            )
        )
    t = t.array if isinstance(t, variable.Variable) else t
    samples = samples.array if isinstance(samples, variable.Variable) else samples
    _check_shapes(x, t, W, samples)
    xp = backend.get_array_module(samples)
    if samples.ndim == 1:
        # negatives shared by the examples (Chainer's matmul broadcasts them)
        samples = xp.broadcast_to(samples, (x.shape[0],) + samples.shape)
    n, k = samples.shape
    words = xp.concatenate((t.reshape(n, 1), samples), axis=1)
    embedded = get_item.get_item(W, words)
    # x and W may have different float dtypes: the loss is computed in
    # NumPy's promotion of them, as Chainer's (each gradient in its own)
    dtype = numpy.result_type(x.dtype, W.dtype)
    embedded, x = cast.as_dtype(embedded, dtype), cast.as_dtype(x, dtype)
    xs = broadcast.broadcast_to(reshape.reshape(x, (n, 1, x.shape[1])), embedded.shape)
    scores = sum_mod.sum(embedded * xs, axis=2)
    log_p = scores - broadcast.broadcast_to(
        reshape.reshape(logsumexp.logsumexp(scores, axis=1), (n, 1)), scores.shape
    )
    negatives = logarithm_1p.log1p(-exponential.exp(log_p[:, 1:]))
    loss = -(log_p[:, 0] + sum_mod.sum(negatives, axis=1))
    if reduce == 'mean':
        if n == 0:
            raise ZeroDivisionError('black_out: the mean of no examples')
        return sum_mod.sum(loss) / n
    return loss


def _check_shapes(x, t, W, samples):
    # Chainer 7.8.1 indexes x as x[:, :, None] (IndexError below two axes)
    # and refuses the rest in the type checks of its embed_id and matmul
    if x.ndim < 2:
        raise IndexError(
            'black_out: x must be of shape (n, in_size), got {}'.format(x.shape)
        )
    for name, a in (('t', t), ('samples', samples)):
        if a.dtype.kind != 'i':
            raise type_check.InvalidType(
                '{}.dtype.kind == i'.format(name), '{} != i'.format(a.dtype.kind)
            )
    n = x.shape[0]
    expect = 'x.ndim == 2, t.shape == (n,), samples of shape (n, K) or (K,)'
    shared = samples.ndim == 1
    if (
        x.ndim != 2
        or t.shape != (n,)
        or not (shared or (samples.ndim == 2 and samples.shape[0] == n))
    ):
        raise type_check.InvalidType(
            expect,
            'x.shape = {}, t.shape = {}, samples.shape = {}'.format(
                x.shape, t.shape, samples.shape
            ),
        )
