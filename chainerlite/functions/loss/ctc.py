"""Connectionist temporal classification loss."""

from __future__ import annotations

import numpy
import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite import variable
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import reshape
from chainerlite.functions.array import stack
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable

# log(0) stand-in: finite, so sums of impossible paths stay free of NaN.
_LOG_ZERO = -1e30


def _logsumexp(xp, *terms):
    m = terms[0]
    for term in terms[1:]:
        m = xp.maximum(m, term)
    total = sum(xp.exp(term - m) for term in terms)
    return m + xp.log(total)


def _shift(xp, a, k):
    # a[..., s - k] at position s, _LOG_ZERO where s < k.
    out = xp.full_like(a, _LOG_ZERO)
    out[..., k:] = a[..., :-k]
    return out


def _finite_or(xp, a, value):
    # a, with value where a is not finite
    return xp.where(xp.isfinite(a), a, value)


class _FirstOrderOnly(function_node.FunctionNode):
    """Passes the CTC gradient on and refuses to differentiate it again.

    The gradient is computed in forward, so its own derivative would be
    wrong; Chainer 7.8.1's old-style node refuses a second order with a
    RuntimeError too. Its second input is the frames, so that a second
    order with respect to them reaches this node and raises.
    """

    def forward(self, inputs):
        return inputs[:1]

    def backward(self, indexes, grad_outputs):
        raise RuntimeError(
            'connectionist_temporal_classification: cannot twice-differentiate '
            'the CTC loss (its gradient is not differentiable)'
        )


class ConnectionistTemporalClassification(function_node.FunctionNode):
    """Connectionist temporal classification loss.

    Its inputs are, as in Chainer, the input lengths, the label lengths, the
    labels and the frames stacked into one ``(T, B, K)`` array.
    """

    # Chainer's attribute: the constant that stands for the log of a zero
    # probability; the first forward sets it by the dtype where it is None
    zero_padding = None

    def __init__(self, blank_symbol, reduce='mean'):
        self.blank_symbol = blank_symbol
        self.reduce = reduce

    def log_matrix(self, x, xp):
        """Chainer's helper: ``log(x)`` of the dtype of ``x``, with
        ``zero_padding`` where that is not finite (a zero probability; the
        log zero of the dtype if no forward has set it)."""
        with numpy.errstate(divide='ignore', invalid='ignore'):
            log = xp.log(x)
        return _finite_or(xp, log, self._log_zero(x.dtype)).astype(x.dtype, copy=False)

    def label_probability(self, label_size, path, path_length, multiply_seq, xp):
        """Chainer's helper: of ``multiply_seq`` (``(T, B, S)``, values per
        position of each path), the sums over the positions of each label,
        ``(T, B, label_size)``; positions past ``path_length`` count none."""
        steps = xp.arange(path.shape[1])
        valid = steps[None, :] < xp.asarray(path_length)[:, None]
        onehot = path[:, :, None] == xp.arange(label_size)[None, None, :]
        counted = xp.where(valid[None], multiply_seq, 0)
        return xp.einsum('tbs,bsk->tbk', counted, onehot.astype(multiply_seq.dtype))

    def calc_trans(
        self, yseq, input_length, label, label_length, path, path_length, xp
    ):
        """Chainer's helper: from the log probabilities ``yseq`` (``(T, B,
        K)``) and the paths (the labels with blanks, of lengths
        ``path_length``), the log of the summed probability of the label's
        alignments through each (time, path position), ``(T, B, S)``, of
        the dtype of ``yseq`` (the forward's lattice; entries past an
        input's or a path's length hold sums of the log zero). ``label``
        and ``label_length`` are read through ``path`` and
        ``path_length``."""
        trans, _ = self._lattice(
            yseq.astype(numpy.float64), input_length, path, path_length, xp
        )
        return trans.astype(yseq.dtype)

    def _lattice(self, log_y, input_length, path, path_length, xp):
        # alpha + beta - emission (the forward and backward log
        # probabilities, each with the emission at its time) and the log
        # probability of each label, in float64
        n_time, batch, _ = log_y.shape
        n_path = path.shape[1]
        steps = xp.arange(n_path)
        valid = steps[None, :] < path_length[:, None]
        # A move skipping a blank is allowed onto a symbol that differs from
        # the one two steps back.
        skip = xp.zeros((batch, n_path), bool)
        skip[:, 2:] = (path[:, 2:] != self.blank_symbol) & (path[:, 2:] != path[:, :-2])
        batch_index = xp.arange(batch)[:, None]
        emit = log_y[:, batch_index, path]  # (T, B, S)
        emit = xp.where(valid[None], emit, _LOG_ZERO)

        alpha = xp.full((n_time, batch, n_path), _LOG_ZERO)
        alpha[0, :, :2] = emit[0, :, :2]
        for i in range(1, n_time):
            prev = alpha[i - 1]
            two_back = xp.where(skip, _shift(xp, prev, 2), _LOG_ZERO)
            alpha[i] = _logsumexp(xp, prev, _shift(xp, prev, 1), two_back) + emit[i]

        last = input_length.astype(numpy.int64) - 1
        final = alpha[last, xp.arange(batch)]  # (B, S)
        end = path_length - 1
        ends = xp.stack(
            [final[xp.arange(batch), end], final[xp.arange(batch), end - 1]]
        )
        log_p = _logsumexp(xp, ends[0], ends[1])  # (B,)

        # beta[i, b, s]: log probability of finishing from step s at time i,
        # the emission at time i included.
        is_end = (steps[None, :] == end[:, None]) | (steps[None, :] == end[:, None] - 1)
        skip_next = xp.zeros_like(skip)
        skip_next[:, :-2] = skip[:, 2:]
        beta = xp.full((n_time, batch, n_path), _LOG_ZERO)
        for i in range(n_time - 1, -1, -1):
            if i + 1 < n_time:
                nxt = beta[i + 1]
                one = xp.full_like(nxt, _LOG_ZERO)
                one[:, :-1] = nxt[:, 1:]
                two = xp.full_like(nxt, _LOG_ZERO)
                two[:, :-2] = nxt[:, 2:]
                two = xp.where(skip_next, two, _LOG_ZERO)
                carried = _logsumexp(xp, nxt, one, two)
            else:
                carried = xp.full((batch, n_path), _LOG_ZERO)
            start = xp.where(is_end, 0.0, _LOG_ZERO)
            here = xp.where((i == last)[:, None], start, carried)
            beta[i] = xp.where((i <= last)[:, None], here + emit[i], _LOG_ZERO)

        return alpha + beta - emit, log_p

    def _log_zero(self, dtype):
        if self.zero_padding is not None:
            return self.zero_padding
        return -1e4 if dtype == numpy.float16 else -1e10

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('input_length', 'label_length', 't', 'x'))
        input_length, label_length, t, x = in_types
        type_check.expect(
            input_length.dtype.kind == 'i',
            input_length.ndim == 1,
            label_length.dtype.kind == 'i',
            label_length.ndim == 1,
            t.dtype.kind == 'i',
            t.ndim == 2,
            input_length.shape[0] == t.shape[0],
            label_length.shape[0] == t.shape[0],
            x.dtype.kind == 'f',
            x.ndim == 3,
            x.shape[1] == t.shape[0],
            x.shape[2] > self.blank_symbol,
        )

    def forward(self, inputs):
        # Chainer's old-style node keeps every input; so does this one.
        self.retain_inputs((0, 1, 2, 3))
        input_length, label_length, t, x = inputs
        xp = backend.get_array_module(x)
        dtype = x.dtype
        x = x.astype(numpy.float64)  # (T, B, K)
        n_time, batch, _ = x.shape
        log_y = x - x.max(axis=2, keepdims=True)
        log_y -= xp.log(xp.exp(log_y).sum(axis=2, keepdims=True))
        # The softmax is NaN over a frame holding NaN or +inf. Where its log
        # is not finite (a zero or NaN probability), Chainer's convention
        # puts a large negative constant in its place; a NaN frame then
        # makes the loss huge rather than NaN.
        softmax = xp.exp(log_y)
        self.zero_padding = self._log_zero(dtype)
        log_y = _finite_or(xp, log_y, self.zero_padding)

        # The label with a blank before, between and after its symbols.
        n_path = 2 * t.shape[1] + 1
        path = xp.full((batch, n_path), self.blank_symbol, t.dtype)
        path[:, 1::2] = t
        path_length = 2 * label_length.astype(numpy.int64) + 1
        trans, log_p = self._lattice(log_y, input_length, path, path_length, xp)
        last = input_length.astype(numpy.int64) - 1

        # Occupancy of each (time, symbol) among the label's paths.
        # The log probabilities are rounded to the input's dtype first, as
        # Chainer computes them in that dtype: beside a NaN frame, where
        # they are all near log_zero, this decides which positions count.
        joint = xp.maximum(trans, numpy.finfo(dtype).min).astype(dtype)
        occupancy = xp.exp(joint - log_p.astype(dtype)[None, :, None], dtype=x.dtype)
        occ_k = self.label_probability(x.shape[2], path, path_length, occupancy, xp)
        # Frames past an input's length get no gradient; a NaN there stays
        # NaN, as in Chainer (which multiplies by the mask).
        active = (xp.arange(n_time)[:, None] <= last[None, :])[:, :, None]
        self._grad = ((softmax - occ_k) * active).astype(dtype)

        loss = -log_p
        if self.reduce == 'mean':
            loss = loss.mean()
        return (utils.force_array(loss, dtype),)

    def backward(self, indexes, grad_outputs):
        (gy,) = grad_outputs
        batch = self._grad.shape[1]
        if self.reduce == 'mean':
            gy = broadcast.broadcast_to(gy * (1.0 / batch), (1, batch, 1))
        else:
            gy = reshape.reshape(gy, (1, batch, 1))
        gx = broadcast.broadcast_to(gy, self._grad.shape) * self._grad
        x = self.get_retained_inputs()[3]
        gx = _FirstOrderOnly().apply((gx, x))[0]
        return tuple(None if i < 3 else gx for i in indexes)


def connectionist_temporal_classification(
    x: Variable | NdArray,
    t,
    blank_symbol,
    input_length=None,
    label_length=None,
    reduce='mean',
) -> Variable:
    """Connectionist temporal classification (CTC) loss.

    The negative log likelihood of the label sequences ``t`` under the
    per-frame softmax distributions given by ``x``, summed over every
    alignment that reduces to ``t`` once repeated symbols are merged and
    blanks removed (`Graves et al., 2006
    <https://www.cs.toronto.edu/~graves/icml_2006.pdf>`_).

    Args:
        x (list or tuple of Variable): The unnormalised scores of each time
            step, each of shape ``(batch, n_symbols)``; the softmax is
            applied inside.
        t (Variable or numpy.ndarray or cupy.ndarray): Integer labels of
            shape ``(batch, max_label_length)``.
        blank_symbol (int): Index of the blank symbol in ``n_symbols``.
        input_length (Variable or numpy.ndarray or cupy.ndarray): Integer
            lengths of the input sequences, shape ``(batch,)``; ``None``
            means ``len(x)`` for all.
        label_length (Variable or numpy.ndarray or cupy.ndarray): Integer
            lengths of the labels, shape ``(batch,)``; ``None`` means
            ``t.shape[1]`` for all.
        reduce (str): ``'mean'`` averages the loss over the batch, ``'no'``
            returns one loss per sequence.

    Returns:
        Variable: A scalar if ``reduce`` is ``'mean'``, otherwise of shape
        ``(batch,)``; of the dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = [np.zeros((1, 2), np.float32)] * 2
        >>> t = np.array([[0]], np.int32)
        >>> round(float(F.connectionist_temporal_classification(x, t, 1).array), 4)
        0.2877

    """
    if not isinstance(x, (list, tuple)):
        raise TypeError(
            'connectionist_temporal_classification: x must be a list or '
            'tuple of Variables, not {}'.format(type(x).__name__)
        )
    if not isinstance(blank_symbol, int) or blank_symbol < 0:
        raise TypeError(
            'connectionist_temporal_classification: blank_symbol must be a '
            'non-negative integer'
        )
    if reduce not in ('mean', 'no'):
        raise ValueError(
            "only 'mean' and 'no' are valid for 'reduce', but '%s' is given" % reduce
        )
    t_array = t.array if isinstance(t, variable.Variable) else t
    xp = backend.get_array_module(t_array)
    batch, max_label = t_array.shape[0], t_array.shape[-1]
    if input_length is None:
        input_length = xp.full((batch,), len(x), numpy.int32)
    if label_length is None:
        label_length = xp.full((batch,), max_label, numpy.int32)
    node = ConnectionistTemporalClassification(blank_symbol, reduce)
    return node.apply((input_length, label_length, t, stack.stack(x)))[0]
