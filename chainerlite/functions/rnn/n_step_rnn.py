"""Stacked RNNs over variable-length sequences (``n_step_rnn`` family).

:func:`run_cell` runs any cell over a batch of sequences, layer by
layer and in one or both directions (:func:`n_step_rnn_impl`, Chainer's
form, any step function). The sequences arrive transposed
(``xs[t]`` holds step ``t`` of every sequence still running, longest
first), so a step works on the first rows of the state only; the rows of
sequences that have ended keep their last state.
"""

from __future__ import annotations

import typing

import numpy

from chainerlite import backend
from chainerlite import configuration
from chainerlite import variable
from chainerlite.functions.activation import relu
from chainerlite.functions.activation import tanh
from chainerlite.functions.array import cast
from chainerlite.functions.array import concat
from chainerlite.functions.array import separate
from chainerlite.functions.array import split_axis
from chainerlite.functions.array import stack
from chainerlite.functions.connection import linear
from chainerlite.functions.noise import dropout
from chainerlite.functions.rnn import _recurrence
from chainerlite.utils import random_state
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _check_kwargs(name, kwargs):
    for old in ('train', 'use_cudnn'):
        if old in kwargs:
            raise ValueError(
                '{}: the {} argument is not supported anymore; use '
                'chainer.using_config'.format(name, old)
            )
    if kwargs:
        raise TypeError(
            '{}() got unexpected keyword argument(s) {}'.format(
                name, ', '.join(sorted(kwargs))
            )
        )


def _check_inputs(name, cell, n_layers, n_dirs, states, ws, bs, batches):
    if not batches:
        raise ValueError(
            '{}: xs must be a non-empty list of arrays, one per time step'.format(name)
        )
    if any(b < b_next for b, b_next in zip(batches, batches[1:])):
        raise ValueError(
            '{}: the batch sizes of xs must not increase (sort the '
            'sequences by decreasing length); got {}'.format(name, batches)
        )
    for what, s in zip(('hx', 'cx'), states):
        if s.ndim != 3 or s.shape[0] != n_layers * n_dirs:
            raise ValueError(
                '{}: {} must have the shape (n_layers * {}, batch, units) '
                'with batch >= len(xs[0]) = {}; got {} for n_layers = '
                '{}'.format(name, what, n_dirs, batches[0], s.shape, n_layers)
            )
        if s.shape[1] < batches[0]:
            # Chainer's cells then add the products of the step's input
            # and of the state, whose shapes differ: InvalidType
            raise type_check.InvalidTypeValueError(
                '{}.shape[1] >= len(xs[0])'.format(what),
                '{} < {}'.format(s.shape[1], batches[0]),
                '{}: {} has {} rows for {} sequences; it needs a row for each '
                'sequence (shape (n_layers * {}, batch, units) with batch >= '
                'len(xs[0]))'.format(name, what, s.shape[1], batches[0], n_dirs),
            )
    if states[-1].shape != states[0].shape:
        raise ValueError(
            '{}: cx must have the shape of hx; got {} and {}'.format(
                name, states[1].shape, states[0].shape
            )
        )
    for what, params in (('ws', ws), ('bs', bs)):
        if len(params) != n_layers * n_dirs or any(
            len(p) != cell.n_weights for p in params
        ):
            raise ValueError(
                '{}: {} must hold n_layers * {} = {} lists of {} arrays each'.format(
                    name, what, n_dirs, n_layers * n_dirs, cell.n_weights
                )
            )


def _drop(x, ratio):
    # As Chainer, a dropout of the layer's input in training mode, even of
    # ratio 0: Chainer then still draws a mask (the random stream moves on).
    # At ratio 0 on NumPy arrays the stream moves on as under a dropout (one
    # seed, recorded and replayed by F.forget alike) but no mask is made or
    # applied: the output and the gradient are the input's.
    if ratio == 0 and configuration.config.train and isinstance(x.array, numpy.ndarray):
        random_state.draw(numpy, 'bits32', (0,))
        return x
    return dropout.dropout(x, ratio)


def run_cell(name, cell, n_layers, dropout_ratio, states, ws, bs, xs, use_bi_direction):
    """Runs a stacked, possibly bidirectional RNN made of ``cell``.

    The input parts of the pre-activations of all steps of a layer and
    direction are one matrix product; the steps then run in one
    :class:`~chainerlite.functions.rnn._recurrence.Recurrence` node.

    Args:
        name (str): Name of the calling function, for error messages.
        cell: The recurrent cell: it has ``n_weights`` (weight matrices
            and bias vectors per layer and direction), ``n_states`` and the
            methods ``prepare(ws, bs)`` (the input weight and bias and the
            recurrent weight and bias, or None, of a layer and direction),
            ``step(states, xw, (w, b))`` (the new states, the output first,
            as differentiable functions) and its array forms:
            ``fills(rows, states, keep)`` (arrays of ``rows`` rows, or None,
            that the steps fill: the output state of every step first),
            ``forward_arrays(states, xw, rec, out)`` (writes the step's
            rows ``out`` of those arrays; returns the new states and what
            the gradient reads; ``rec`` is ``h @ w.T + b``, or ``xw + h @
            w.T + b`` where the cell's ``summed`` is True) and
            ``backward_arrays(saved, gstates, out)`` (writes the gradients
            of ``xw`` and of ``rec`` into ``out``, one array twice where
            ``summed``; returns the direct parts of the gradients of the
            states, None where there is none); ``layer`` is None or a
            compiled layer run before them (see ``_lstm_layer``);
            ``checks_in_size``: whether an input whose size is not the
            first weight's raises ValueError first (as Chainer's
            ``n_step_rnn`` and ``n_step_lstm``; ``n_step_gru`` fails in a
            type check).
        n_layers (int): Number of layers.
        dropout_ratio (float): Dropout ratio of the inputs of every layer
            but the first (in training mode; a mask per direction).
        states (tuple of Variable): Initial states, ``(hx,)`` or
            ``(hx, cx)``, of shape ``(n_layers * D, B, N)``, where ``D`` is
            2 for a bidirectional RNN and 1 otherwise.
        ws (list of list of Variable): Weights per layer and direction.
        bs (list of list of Variable): Biases per layer and direction.
        xs (list of Variable): Inputs per time step, of non-increasing
            batch sizes.
        use_bi_direction (bool): Run each layer in both directions.

    Returns:
        tuple: The final states, stacked like ``states``, and the tuple of
        the outputs of the last layer per time step.

    """
    if not isinstance(xs, (list, tuple)):
        xs = ()
    batches = [len(x) for x in xs]
    x = concat.concat(xs, axis=0) if len(xs) > 1 else xs[0] if xs else None
    stacked, y = run_rows(
        name,
        cell,
        n_layers,
        dropout_ratio,
        states,
        ws,
        bs,
        x,
        batches,
        use_bi_direction,
    )
    ys = (
        tuple(split_axis.split_axis(y, _recurrence.offsets(batches)[1:], axis=0))
        if len(batches) > 1
        else (y,)
    )
    return stacked, ys


def n_step_rnn_impl(f, n_layers, dropout_ratio, hx, cx, ws, bs, xs, use_bi_direction):
    """Chainer's driver of a stacked RNN of any step function: ``f(x, h, c,
    w, b)`` gives the new ``(h, c)`` of the rows of a step (``c`` is None
    for cells without a cell state, ``cx`` None then), with ``w`` and ``b``
    the lists of weights of the layer and direction. The arguments are
    those of :func:`run_cell`, with the initial states apart; the steps
    are calls of ``f`` (not chainerlite's fused recurrence).

    Returns:
        tuple: ``(hy, cy, ys)``: the final states stacked like ``hx`` (and
        ``cx``; None without it) and the outputs of the last layer.

    """
    n_dirs = 2 if use_bi_direction else 1
    hs = separate.separate(hx)
    cs = [None] * len(hs) if cx is None else separate.separate(cx)
    hy, cy = [], []
    inputs = list(xs)
    for layer in range(n_layers):
        outputs = []
        for d in range(n_dirs):
            i = layer * n_dirs + d
            steps = [_drop(x, dropout_ratio) for x in inputs] if layer else inputs
            h, c, ys = _run_steps(
                f, steps[::-1] if d else steps, hs[i], cs[i], ws[i], bs[i]
            )
            hy.append(h)
            cy.append(c)
            outputs.append(ys[::-1] if d else ys)
        inputs = (
            outputs[0]
            if n_dirs == 1
            else [concat.concat(pair, axis=1) for pair in zip(*outputs)]
        )
    return stack.stack(hy), None if cx is None else stack.stack(cy), tuple(inputs)


def _run_steps(f, xs, h, c, w, b):
    # one layer and direction of n_step_rnn_impl: the step of each x on the
    # first len(x) rows of the states (the other rows keep theirs)
    ys = []
    for x in xs:
        n = len(x)
        split = len(h) > n
        if split:
            h, h_rest = split_axis.split_axis(h, [n], axis=0)
            if c is not None:
                c, c_rest = split_axis.split_axis(c, [n], axis=0)
        h, c = f(x, h, c, w, b)
        ys.append(h)
        if split:
            h = concat.concat((h, h_rest), axis=0)
            if c is not None:
                c = concat.concat((c, c_rest), axis=0)
    return h, c, ys


def run_rows(
    name, cell, n_layers, dropout_ratio, states, ws, bs, x, batches, use_bi_direction
):
    """:func:`run_cell` on the steps' inputs joined: ``x`` holds the
    rows of all steps, those of step 0 first, ``batches[t]`` rows of step
    ``t``. Returns the final states, stacked, and the outputs of the last
    layer, rows in the order of ``x``."""
    n_dirs = 2 if use_bi_direction else 1
    states = tuple(variable.as_variable(s) for s in states)
    _check_inputs(name, cell, n_layers, n_dirs, states, ws, bs, batches)
    if cell.checks_in_size and x.shape[1] != ws[0][0].shape[1]:
        # Chainer's n_step_rnn and n_step_lstm check it (n_step_gru does not)
        raise ValueError(
            'Inconsistent input size in input values and weight parameters: '
            '{} != {}'.format(x.shape[1], ws[0][0].shape[1])
        )
    finals = []
    for layer in range(n_layers):
        outputs = []
        for d in range(n_dirs):
            # as Chainer: each direction draws its own mask (in training
            # mode, even of ratio 0), over the rows of all steps in order
            x_d = _drop(x, dropout_ratio) if layer > 0 else x
            index = layer * n_dirs + d
            w_x, b_x, w, b = cell.prepare(ws[index], bs[index])
            xw = linear.linear(x_d, w_x, b_x)
            # the recurrence runs in the dtype of xw (NumPy's promotion, as
            # Chainer's); the other inputs' gradients go back in their own
            inputs = tuple(
                cast.as_dtype(v, xw.dtype)
                for v in (
                    (xw,)
                    + tuple(s[index] for s in states)
                    + ((w,) if b is None else (w, b))
                )
            )
            out = _recurrence.Recurrence(cell, batches, d == 1).apply(inputs)
            outputs.append(out[0])
            finals.append(out[1:])
        x = concat.concat(outputs, axis=1) if use_bi_direction else outputs[0]
    return tuple(stack.stack(s, axis=0) for s in zip(*finals)), x


_ACTIVATIONS = {'tanh': tanh.tanh, 'relu': relu.relu}


class _RNNCell(object):
    n_weights = 2
    n_states = 1
    summed = True  # forward_arrays takes the whole pre-activation
    layer = None  # no compiled layer: the steps run one by one
    checks_in_size = True  # see run_rows

    def __init__(self, activation):
        self.activation = activation

    def prepare(self, ws, bs):
        return ws[0], bs[0], ws[1], bs[1]

    def step(self, states, xw, params):
        (h,) = states
        w, b = params
        return (_ACTIVATIONS[self.activation](xw + linear.linear(h, w, b)),)

    def fills(self, rows, states, keep):
        return (_recurrence.output_rows(rows, states),)

    def forward_arrays(self, states, xw, pre, out):
        xp = backend.get_array_module(pre)
        (h,) = out
        if self.activation == 'tanh':
            xp.tanh(pre, out=h)
        else:
            xp.maximum(pre, 0, out=h)
        return (h,), h

    def backward_arrays(self, h, gstates, out):
        (gh,) = gstates
        xp = backend.get_array_module(h)
        active = 1 - h * h if self.activation == 'tanh' else h > 0
        xp.multiply(gh, active, out=out[0])
        return (None,)


def n_step_rnn_base(
    n_layers, dropout_ratio, hx, ws, bs, xs, activation, use_bi_direction, **kwargs
):
    """Base of :func:`n_step_rnn` and :func:`n_step_birnn`.

    Args:
        use_bi_direction (bool): Run each layer in both directions (the
            other arguments are those of :func:`n_step_rnn`).

    Returns:
        tuple: ``(hy, ys)`` as in :func:`n_step_rnn`.

    """
    name = 'n_step_birnn' if use_bi_direction else 'n_step_rnn'
    _check_kwargs(name, kwargs)
    if activation not in _ACTIVATIONS:
        raise ValueError(
            '{}: activation must be "tanh" or "relu", not {!r}'.format(name, activation)
        )
    (hy,), ys = run_cell(
        name,
        _RNNCell(activation),
        n_layers,
        dropout_ratio,
        (hx,),
        ws,
        bs,
        xs,
        use_bi_direction,
    )
    return hy, ys


def n_step_rnn(
    n_layers,
    dropout_ratio,
    hx,
    ws,
    bs,
    xs: typing.Sequence[Variable | NdArray],
    activation='tanh',
    **kwargs,
):
    """Stacked uni-directional RNN over sequences.

    Each layer ``l`` computes, at every time step ``t``,

    .. math::
        h_t = f(W_0 x_t + b_0 + W_1 h_{t-1} + b_1),

    where :math:`f` is ``tanh`` or ``relu`` and :math:`x_t` is the input of
    the layer: the sequence for the first layer, the outputs :math:`h_t`
    of the layer below otherwise. All steps of all layers run in one call.

    The sequences are given transposed and sorted by decreasing length:
    ``xs[t]`` holds step ``t`` of every sequence that has one, so the batch
    sizes of ``xs`` never increase (see
    :func:`~chainerlite.functions.transpose_sequence`). A sequence that
    ends keeps its last state in ``hy``.

    Args:
        n_layers (int): Number of layers :math:`S`.
        dropout_ratio (float): Dropout ratio applied, in training mode, to
            the inputs of every layer but the first.
        hx (Variable or numpy.ndarray or cupy.ndarray): Initial hidden
            states, of shape :math:`(S, B, N)`.
        ws (list of list of Variable): ``ws[l]`` holds the weights
            :math:`W_0` (shape :math:`(N, I)`, where :math:`I` is the input
            size of layer ``l``) and :math:`W_1` (shape :math:`(N, N)`).
        bs (list of list of Variable): ``bs[l]`` holds :math:`b_0` and
            :math:`b_1`, of shape :math:`(N,)`.
        xs (list of Variable): The inputs per time step; ``xs[t]`` has shape
            :math:`(B_t, I)` with :math:`B = B_0 \\ge B_1 \\ge \\dots`.
        activation (str): ``'tanh'`` or ``'relu'``.

    Returns:
        tuple: ``(hy, ys)``: the final hidden states, of shape
        :math:`(S, B, N)`, and the tuple of the outputs of the last layer per
        time step, ``ys[t]`` of shape :math:`(B_t, N)`.

    Raises:
        ValueError: If the shapes of ``hx``, the number of weights or the
            order of the batch sizes is wrong, or ``activation`` is unknown.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> xs = [np.ones((2, 3), np.float32), np.ones((1, 3), np.float32)]
        >>> hx = np.zeros((1, 2, 4), np.float32)
        >>> ws = [[np.zeros((4, 3), np.float32),
        ...        np.zeros((4, 4), np.float32)]]
        >>> bs = [[np.ones(4, np.float32), np.zeros(4, np.float32)]]
        >>> hy, ys = F.n_step_rnn(1, 0.0, hx, ws, bs, xs, 'relu')
        >>> hy.shape, [y.shape for y in ys]
        ((1, 2, 4), [(2, 4), (1, 4)])

    """
    return n_step_rnn_base(
        n_layers,
        dropout_ratio,
        hx,
        ws,
        bs,
        xs,
        activation,
        use_bi_direction=False,
        **kwargs,
    )


def n_step_birnn(
    n_layers,
    dropout_ratio,
    hx,
    ws,
    bs,
    xs: typing.Sequence[Variable | NdArray],
    activation='tanh',
    **kwargs,
):
    """Stacked bidirectional RNN over sequences.

    As :func:`n_step_rnn`, but each layer runs forward and backward in
    time, with its own weights (and, in training mode, its own dropout mask
    of the layer's inputs) per direction, and passes the concatenation of
    both outputs (forward first) to the next layer.

    Args:
        n_layers (int): Number of layers :math:`S`.
        dropout_ratio (float): Dropout ratio applied, in training mode, to
            the inputs of every layer but the first.
        hx (Variable or numpy.ndarray or cupy.ndarray): Initial hidden
            states, of shape :math:`(2S, B, N)`; row ``2 l + d`` is layer
            ``l`` in direction ``d`` (0 forward, 1 backward).
        ws (list of list of Variable): ``2S`` lists of the weights
            :math:`W_0, W_1`, indexed like ``hx``; :math:`W_0` of the layers
            above the first has shape :math:`(N, 2N)`.
        bs (list of list of Variable): ``2S`` lists of :math:`b_0, b_1`.
        xs (list of Variable): The inputs per time step, of non-increasing
            batch sizes.
        activation (str): ``'tanh'`` or ``'relu'``.

    Returns:
        tuple: ``(hy, ys)``: the final hidden states, of shape
        :math:`(2S, B, N)`, and the outputs of the last layer per time
        step, ``ys[t]`` of shape :math:`(B_t, 2N)`.

    Raises:
        ValueError: If the shapes of ``hx``, the number of weights or the
            order of the batch sizes is wrong, or ``activation`` is unknown.

    """
    return n_step_rnn_base(
        n_layers,
        dropout_ratio,
        hx,
        ws,
        bs,
        xs,
        activation,
        use_bi_direction=True,
        **kwargs,
    )
