"""Stacked GRUs over variable-length sequences."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite.functions.activation import sigmoid
from chainerlite.functions.activation import tanh
from chainerlite.functions.array import concat
from chainerlite.functions.array import split_axis
from chainerlite.functions.connection import linear
from chainerlite.functions.rnn import _recurrence
from chainerlite.functions.rnn import n_step_rnn

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class _GRUCell(object):
    n_weights = 6
    n_states = 1
    summed = False  # forward_arrays takes h @ w.T + b apart from xw
    layer = None  # no compiled layer: the steps run one by one
    # as Chainer's n_step_gru: an input of another size fails in the linear
    checks_in_size = False

    def prepare(self, ws, bs):
        # the parts of r, z and the candidate, input and recurrent
        return (
            concat.concat(ws[:3], axis=0),
            concat.concat(bs[:3], axis=0),
            concat.concat(ws[3:], axis=0),
            concat.concat(bs[3:], axis=0),
        )

    def step(self, states, xw, params):
        (h,) = states
        w, b = params
        x_r, x_z, x_h = split_axis.split_axis(xw, 3, axis=1)
        h_r, h_z, h_h = split_axis.split_axis(linear.linear(h, w, b), 3, axis=1)
        r = sigmoid.sigmoid(x_r + h_r)
        z = sigmoid.sigmoid(x_z + h_z)
        h_bar = tanh.tanh(x_h + r * h_h)
        return ((1 - z) * h_bar + z * h,)

    def fills(self, rows, states, keep):
        return (_recurrence.output_rows(rows, states),)

    def forward_arrays(self, states, xw, rec, out):
        h = states[0]
        xp = backend.get_array_module(h)
        n = h.shape[1]
        (rz,) = sigmoid.Sigmoid().forward((xw[:, : 2 * n] + rec[:, : 2 * n],))
        r, z = rz[:, :n], rz[:, n:]
        h_h = rec[:, 2 * n :]
        h_bar = xp.tanh(xw[:, 2 * n :] + r * h_h)
        xp.add((1 - z) * h_bar, z * h, out=out[0])
        return (out[0],), (h, r, z, h_bar, h_h)

    def backward_arrays(self, saved, gstates, out):
        h, r, z, h_bar, h_h = saved
        (gh,) = gstates
        xp = backend.get_array_module(h)
        g_bar = gh * (1 - z) * (1 - h_bar * h_bar)
        g_z = gh * (h - h_bar) * z * (1 - z)
        g_r = g_bar * h_h * r * (1 - r)
        xp.concatenate((g_r, g_z, g_bar), axis=1, out=out[0])
        xp.concatenate((g_r, g_z, g_bar * r), axis=1, out=out[1])
        return (gh * z,)


def n_step_gru_base(
    n_layers, dropout_ratio, hx, ws, bs, xs, use_bi_direction, **kwargs
):
    """Base of :func:`n_step_gru` and :func:`n_step_bigru`.

    Args:
        use_bi_direction (bool): Run each layer in both directions (the
            other arguments are those of :func:`n_step_gru`).

    Returns:
        tuple: ``(hy, ys)`` as in :func:`n_step_gru`.

    """
    name = 'n_step_bigru' if use_bi_direction else 'n_step_gru'
    n_step_rnn._check_kwargs(name, kwargs)
    (hy,), ys = n_step_rnn.run_cell(
        name, _GRUCell(), n_layers, dropout_ratio, (hx,), ws, bs, xs, use_bi_direction
    )
    return hy, ys


def n_step_gru(
    n_layers,
    dropout_ratio,
    hx,
    ws,
    bs,
    xs: typing.Sequence[Variable | NdArray],
    **kwargs,
):
    """Stacked uni-directional GRU over sequences.

    Each layer computes, at every time step ``t``,

    .. math::
        r_t &= \\sigma(W_0 x_t + W_3 h_{t-1} + b_0 + b_3), \\\\
        z_t &= \\sigma(W_1 x_t + W_4 h_{t-1} + b_1 + b_4), \\\\
        \\bar{h}_t &= \\tanh(W_2 x_t + b_2 + r_t (W_5 h_{t-1} + b_5)), \\\\
        h_t &= (1 - z_t) \\bar{h}_t + z_t h_{t-1},

    where :math:`x_t` is the sequence for the first layer and the outputs
    :math:`h_t` of the layer below otherwise. The sequences are given
    transposed and sorted by decreasing length, as for
    :func:`~chainerlite.functions.n_step_rnn`; a sequence that ends keeps
    its last state in ``hy``.

    Args:
        n_layers (int): Number of layers :math:`S`.
        dropout_ratio (float): Dropout ratio applied, in training mode, to
            the inputs of every layer but the first.
        hx (Variable or numpy.ndarray or cupy.ndarray): Initial hidden
            states, of shape :math:`(S, B, N)`.
        ws (list of list of Variable): ``ws[l]`` holds :math:`W_0, \\dots,
            W_5` of layer ``l``: :math:`W_0, W_1, W_2` of shape
            :math:`(N, I)`, where :math:`I` is the input size of the layer,
            and :math:`W_3, W_4, W_5` of shape :math:`(N, N)`.
        bs (list of list of Variable): ``bs[l]`` holds :math:`b_0, \\dots,
            b_5`, of shape :math:`(N,)`.
        xs (list of Variable): The inputs per time step; ``xs[t]`` has shape
            :math:`(B_t, I)` with :math:`B = B_0 \\ge B_1 \\ge \\dots`.

    Returns:
        tuple: ``(hy, ys)``: the final hidden states, of shape
        :math:`(S, B, N)`, and the tuple of the outputs of the last layer per
        time step, ``ys[t]`` of shape :math:`(B_t, N)`.

    Raises:
        ValueError: If the shape of ``hx``, the number of weights or the
            order of the batch sizes is wrong.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> xs = [np.ones((2, 3), np.float32), np.ones((1, 3), np.float32)]
        >>> hx = np.zeros((1, 2, 4), np.float32)
        >>> ws = [[np.zeros((4, 3 if k < 3 else 4), np.float32)
        ...        for k in range(6)]]
        >>> bs = [[np.zeros(4, np.float32) for k in range(6)]]
        >>> hy, ys = F.n_step_gru(1, 0.0, hx, ws, bs, xs)
        >>> hy.shape, [y.shape for y in ys]
        ((1, 2, 4), [(2, 4), (1, 4)])

    """
    return n_step_gru_base(
        n_layers, dropout_ratio, hx, ws, bs, xs, use_bi_direction=False, **kwargs
    )


def n_step_bigru(
    n_layers,
    dropout_ratio,
    hx,
    ws,
    bs,
    xs: typing.Sequence[Variable | NdArray],
    **kwargs,
):
    """Stacked bidirectional GRU over sequences.

    As :func:`n_step_gru`, but each layer runs forward and backward in
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
        ws (list of list of Variable): ``2S`` lists of :math:`W_0, \\dots,
            W_5`, indexed like ``hx``; :math:`W_0, W_1, W_2` of the layers
            above the first have shape :math:`(N, 2N)`.
        bs (list of list of Variable): ``2S`` lists of :math:`b_0, \\dots,
            b_5`.
        xs (list of Variable): The inputs per time step, of non-increasing
            batch sizes.

    Returns:
        tuple: ``(hy, ys)``: the final hidden states, of shape
        :math:`(2S, B, N)`, and the outputs of the last layer per time
        step, ``ys[t]`` of shape :math:`(B_t, 2N)`.

    Raises:
        ValueError: If the shape of ``hx``, the number of weights or the
            order of the batch sizes is wrong.

    """
    return n_step_gru_base(
        n_layers, dropout_ratio, hx, ws, bs, xs, use_bi_direction=True, **kwargs
    )
