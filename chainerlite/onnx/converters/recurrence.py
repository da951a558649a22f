"""One layer and direction of an n-step RNN (the ``Recurrence`` node of
``n_step_lstm``, ``n_step_rnn`` and their forms, see
``chainerlite/functions/rnn/_recurrence.py``) as ONNX operators, step by
step: the rows of the states that step ``t`` works on (its first
``batches[t]``), the product with the recurrent weight and the cell's
formula; the rows of sequences that have ended keep their states."""

import itertools

import numpy as np

from chainerlite.functions.rnn import n_step_gru
from chainerlite.functions.rnn import n_step_lstm
from chainerlite.functions.rnn import n_step_rnn
from chainerlite.functions.rnn import _recurrence
from chainerlite.onnx import onnx_helper
from chainerlite.onnx.converters import _util
from chainerlite.onnx.converters.converter import register


class _Builder(object):
    # A GraphBuilder with slices for the opset and constants named apart.

    def __init__(self, opset_version, context, dtype):
        self.gb = onnx_helper.GraphBuilder()
        self.opset_version = opset_version
        self.context = context
        self.dtype = dtype
        self.count = itertools.count()

    def op(self, name, inputs, **kwargs):
        return self.gb.op(name, inputs, **kwargs)

    def slice(self, x, lo, hi, axis):
        if self.opset_version < 10:
            return self.op('Slice', [x], axes=[axis], starts=[lo], ends=[hi])
        k = next(self.count)
        consts = [
            _util.int64s(self.context, [v], '{}{}'.format(what, k))
            for what, v in (('starts', lo), ('ends', hi), ('axes', axis))
        ]
        return self.op('Slice', [x] + consts)

    def one(self):
        return _util.const(
            self.context, np.ones((), self.dtype), 'one{}'.format(next(self.count))
        )


def _lstm_step(g, xw, rec, states, units):
    h, c = states
    pre = g.op('Add', [xw, rec])
    a, i, f, o = (g.slice(pre, k * units, (k + 1) * units, 1) for k in range(4))
    a = g.op('Tanh', [a])
    i, f, o = (g.op('Sigmoid', [v]) for v in (i, f, o))
    c = g.op('Add', [g.op('Mul', [a, i]), g.op('Mul', [f, c])])
    return g.op('Mul', [o, g.op('Tanh', [c])]), c


def _gru_step(g, xw, rec, states, units):
    (h,) = states
    x_r, x_z, x_h = (g.slice(xw, k * units, (k + 1) * units, 1) for k in range(3))
    h_r, h_z, h_h = (g.slice(rec, k * units, (k + 1) * units, 1) for k in range(3))
    r = g.op('Sigmoid', [g.op('Add', [x_r, h_r])])
    z = g.op('Sigmoid', [g.op('Add', [x_z, h_z])])
    h_bar = g.op('Tanh', [g.op('Add', [x_h, g.op('Mul', [r, h_h])])])
    keep = g.op('Mul', [g.op('Sub', [g.one(), z]), h_bar])
    return (g.op('Add', [keep, g.op('Mul', [z, h])]),)


def _rnn_step(activation):
    def step(g, xw, rec, states, units):
        return (g.op(activation, [g.op('Add', [xw, rec])]),)

    return step


def _step_of(cell):
    if isinstance(cell, n_step_lstm._LSTMCell):
        return _lstm_step
    if isinstance(cell, n_step_gru._GRUCell):
        return _gru_step
    if isinstance(cell, n_step_rnn._RNNCell):
        return _rnn_step('Tanh' if cell.activation == 'tanh' else 'Relu')
    raise ValueError('Recurrence: no ONNX form of the cell {!r}'.format(cell))


@register('JoinedViews', opsets=(1,))
def convert_joined_views(func, opset_version, input_names, output_names, context):
    # an n-step link's gate weights, views of one array: their concatenation
    return _util.single('Concat', input_names, output_names, axis=0)


@register('Recurrence', opsets=(7, 10, 11))
def convert_recurrence(func, opset_version, input_names, output_names, context):
    cell, batches = func.cell, func.batches
    n = cell.n_states
    g = _Builder(opset_version, context, _util.in_dtype(func))
    step = _step_of(cell)
    rows, units = _util.in_shape(func, 1)
    xw, states, w = input_names[0], list(input_names[1 : 1 + n]), input_names[1 + n]
    # h W^T (+ b) as Gemm, as Chainer's linear: ONNX Runtime fuses a
    # Transpose into a MatMul as FusedMatMul, which has no float64 kernel
    if len(input_names) > 2 + n:
        bias = [input_names[2 + n]]
    elif opset_version < 11:  # C is optional from opset 11
        bias = [_util.const(context, np.zeros(1, g.dtype), 'zero')]
    else:
        bias = []
    starts = _recurrence.offsets(batches)
    ys = [None] * len(batches)
    order = range(len(batches))
    for t in reversed(order) if func.reverse else order:
        b = batches[t]
        heads = [s if b == rows else g.slice(s, 0, b, 0) for s in states]
        rec = g.op('Gemm', [heads[0], w] + bias, transB=1)
        xw_t = g.slice(xw, starts[t], starts[t] + b, 0)
        new = step(g, xw_t, rec, heads, units)
        ys[t] = new[0]
        states = [
            h if b == rows else g.op('Concat', [h, g.slice(s, b, rows, 0)], axis=0)
            for h, s in zip(new, states)
        ]
    if len(ys) > 1:
        g.gb.op_output_named('Concat', ys, [output_names[0]], axis=0)
    else:
        g.gb.op_output_named('Identity', ys, [output_names[0]])
    for s, name in zip(states, output_names[1:]):
        g.gb.op_output_named('Identity', [s], [name])
    return g.gb.nodes()
