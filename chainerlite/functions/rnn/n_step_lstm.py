"""Stacked LSTMs over variable-length sequences."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite._kernels import lstm as lstm_kernels
from chainerlite.functions.array import concat
from chainerlite.functions.array import reshape
from chainerlite.functions.connection import linear
from chainerlite.functions.rnn import _lstm_layer
from chainerlite.functions.rnn import _recurrence
from chainerlite.functions.rnn import _views
from chainerlite.functions.rnn import lstm
from chainerlite.functions.rnn import n_step_rnn

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _blocks(params):
    # Gates [i, f, a, o] (W_0..W_3 or W_4..W_7) as the blocks [a, i, f, o]
    # of rows: seen as (batch, 4, units), they are F.lstm's gates of one
    # cell whose trailing axis holds the units.
    i, f, a, o = params
    joined = _views.joined((a, i, f, o))
    return concat.concat((a, i, f, o), axis=0) if joined is None else joined


def _cell_shape(x, gates):
    # (batch, units) seen as one cell with the units on a trailing axis
    return (len(x), gates, x.shape[1] // gates)


class _LSTMCell(object):
    n_weights = 8
    n_states = 2
    summed = True  # forward_arrays takes the whole pre-activation
    layer = _lstm_layer  # all steps of a layer in one call, where it takes them
    checks_in_size = True  # see run_rows
    # the weights and biases prepare joins, in order (see _views.share_rows)
    row_blocks = ((2, 0, 1, 3), (6, 4, 5, 7))

    def prepare(self, ws, bs):
        # both biases are added to the input part
        return _blocks(ws[:4]), _blocks(bs[:4]) + _blocks(bs[4:]), _blocks(ws[4:]), None

    def step(self, states, xw, params):
        h, c = states
        w, _ = params
        gates = xw + linear.linear(h, w)
        c, h = lstm.lstm(
            reshape.reshape(c, _cell_shape(c, 1)),
            reshape.reshape(gates, _cell_shape(gates, 4)),
        )
        return reshape.reshape(h, h.shape[::2]), reshape.reshape(c, c.shape[::2])

    def fills(self, rows, states, keep):
        # h and c of every step, and the activations the compiled kernels
        # save for the gradient (None where not kept or not compiled)
        h, c = states
        xp = backend.get_array_module(h)
        cs = xp.empty((rows, c.shape[1]), c.dtype)
        act = None
        if keep and lstm._compiled(h, c):
            act = xp.empty((rows, 5 * c.shape[1]), c.dtype)
        return _recurrence.output_rows(rows, states), cs, act

    def forward_arrays(self, states, xw, pre, out):
        h, c, act = out
        c_prev = states[1].reshape(_cell_shape(states[1], 1))
        gates = pre.reshape(_cell_shape(pre, 4))
        if not lstm._compiled(c_prev, gates):
            cell = lstm.LSTM()
            c_new, h_new = cell.forward((c_prev, gates))
            h[...] = h_new.reshape(h.shape)
            c[...] = c_new.reshape(c.shape)
            return (h, c), (c_prev, gates, c_new, None)
        c_next = c.reshape(c_prev.shape)
        if act is not None:
            act = act.reshape(c_prev.shape[:2] + (5, c_prev.shape[2]))
        lstm_kernels.lstm_forward(
            c_prev, gates, c_next, h.reshape(c_prev.shape), act is not None, act
        )
        if act is None:
            return (h, c), (c_prev, gates, c_next, None)
        # Given the activations, the compiled gradient reads neither the
        # gates nor c, only their shapes: the step's rows of xw (kept by the
        # node anyway) and c_prev stand in for them.
        return (h, c), (c_prev, xw.reshape(gates.shape), c_prev, act)

    def backward_arrays(self, saved, gstates, out):
        c_prev, gates, c, act = saved
        gh, gc = (g.reshape(c_prev.shape) for g in gstates)
        gx = out[0].reshape(gates.shape)
        if lstm._compiled(c_prev, gates, gc, gh):
            gc_prev, _ = lstm._backward_cpu(c_prev, gates, c, gc, gh, act, gx)
        else:
            gc_prev, gx[...] = lstm.LSTMGrad(act).forward((c_prev, gates, c, gc, gh))
        return (None, gc_prev.reshape(gc_prev.shape[::2]))


def n_step_lstm_base(
    n_layers, dropout_ratio, hx, cx, ws, bs, xs, use_bi_direction, **kwargs
):
    """Base of :func:`n_step_lstm` and :func:`n_step_bilstm`.

    Args:
        use_bi_direction (bool): Run each layer in both directions (the
            other arguments are those of :func:`n_step_lstm`).

    Returns:
        tuple: ``(hy, cy, ys)`` as in :func:`n_step_lstm`.

    """
    name = 'n_step_bilstm' if use_bi_direction else 'n_step_lstm'
    n_step_rnn._check_kwargs(name, kwargs)
    (hy, cy), ys = n_step_rnn.run_cell(
        name,
        _LSTMCell(),
        n_layers,
        dropout_ratio,
        (hx, cx),
        ws,
        bs,
        xs,
        use_bi_direction,
    )
    return hy, cy, ys


def n_step_lstm(
    n_layers,
    dropout_ratio,
    hx,
    cx,
    ws,
    bs,
    xs: typing.Sequence[Variable | NdArray],
    **kwargs,
):
    """Stacked uni-directional LSTM over sequences.

    Each layer computes, at every time step ``t``,

    .. math::
        i_t &= \\sigma(W_0 x_t + W_4 h_{t-1} + b_0 + b_4), \\\\
        f_t &= \\sigma(W_1 x_t + W_5 h_{t-1} + b_1 + b_5), \\\\
        a_t &= \\tanh(W_2 x_t + W_6 h_{t-1} + b_2 + b_6), \\\\
        o_t &= \\sigma(W_3 x_t + W_7 h_{t-1} + b_3 + b_7), \\\\
        c_t &= f_t c_{t-1} + i_t a_t, \\\\
        h_t &= o_t \\tanh(c_t),

    where :math:`x_t` is the sequence for the first layer and the outputs
    :math:`h_t` of the layer below otherwise. The sequences are given
    transposed and sorted by decreasing length, as for
    :func:`~chainerlite.functions.n_step_rnn`; a sequence that ends keeps
    its last states in ``hy`` and ``cy``.

    Args:
        n_layers (int): Number of layers :math:`S`.
        dropout_ratio (float): Dropout ratio applied, in training mode, to
            the inputs of every layer but the first.
        hx (Variable or numpy.ndarray or cupy.ndarray): Initial hidden
            states, of shape :math:`(S, B, N)`.
        cx (Variable or numpy.ndarray or cupy.ndarray): Initial cell
            states, of shape :math:`(S, B, N)`.
        ws (list of list of Variable): ``ws[l]`` holds :math:`W_0, \\dots,
            W_7` of layer ``l``: :math:`W_0, \\dots, W_3` of shape
            :math:`(N, I)`, where :math:`I` is the input size of the layer,
            and :math:`W_4, \\dots, W_7` of shape :math:`(N, N)`.
        bs (list of list of Variable): ``bs[l]`` holds :math:`b_0, \\dots,
            b_7`, of shape :math:`(N,)`.
        xs (list of Variable): The inputs per time step; ``xs[t]`` has shape
            :math:`(B_t, I)` with :math:`B = B_0 \\ge B_1 \\ge \\dots`.

    Returns:
        tuple: ``(hy, cy, ys)``: the final hidden and cell states, of shape
        :math:`(S, B, N)`, and the tuple of the outputs of the last layer per
        time step, ``ys[t]`` of shape :math:`(B_t, N)`.

    Raises:
        ValueError: If the shapes of ``hx`` or ``cx``, the number of weights
            or the order of the batch sizes is wrong.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> xs = [np.ones((2, 3), np.float32), np.ones((1, 3), np.float32)]
        >>> hx = cx = np.zeros((1, 2, 4), np.float32)
        >>> ws = [[np.zeros((4, 3 if k < 4 else 4), np.float32)
        ...        for k in range(8)]]
        >>> bs = [[np.zeros(4, np.float32) for k in range(8)]]
        >>> hy, cy, ys = F.n_step_lstm(1, 0.0, hx, cx, ws, bs, xs)
        >>> hy.shape, cy.shape, [y.shape for y in ys]
        ((1, 2, 4), (1, 2, 4), [(2, 4), (1, 4)])

    """
    return n_step_lstm_base(
        n_layers, dropout_ratio, hx, cx, ws, bs, xs, use_bi_direction=False, **kwargs
    )


def n_step_bilstm(
    n_layers,
    dropout_ratio,
    hx,
    cx,
    ws,
    bs,
    xs: typing.Sequence[Variable | NdArray],
    **kwargs,
):
    """Stacked bidirectional LSTM over sequences.

    As :func:`n_step_lstm`, but each layer runs forward and backward in
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
        cx (Variable or numpy.ndarray or cupy.ndarray): Initial cell
            states, shaped like ``hx``.
        ws (list of list of Variable): ``2S`` lists of :math:`W_0, \\dots,
            W_7`, indexed like ``hx``; :math:`W_0, \\dots, W_3` of the
            layers above the first have shape :math:`(N, 2N)`.
        bs (list of list of Variable): ``2S`` lists of :math:`b_0, \\dots,
            b_7`.
        xs (list of Variable): The inputs per time step, of non-increasing
            batch sizes.

    Returns:
        tuple: ``(hy, cy, ys)``: the final hidden and cell states, of shape
        :math:`(2S, B, N)`, and the outputs of the last layer per time
        step, ``ys[t]`` of shape :math:`(B_t, 2N)`.

    Raises:
        ValueError: If the shapes of ``hx`` or ``cx``, the number of weights
            or the order of the batch sizes is wrong.

    """
    return n_step_lstm_base(
        n_layers, dropout_ratio, hx, cx, ws, bs, xs, use_bi_direction=True, **kwargs
    )
