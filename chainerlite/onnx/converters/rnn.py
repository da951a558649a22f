"""``n_step_gru`` (traced as one node while exporting) as ONNX GRU layers.

n_step_gru's gates per layer, with weights ``W0..W5`` and biases ``b0..b5``:
``r = sigmoid(W0 x + b0 + W3 h + b3)``, ``z = sigmoid(W1 x + b1 + W4 h + b4)``,
``h~ = tanh(W2 x + b2 + r * (W5 h + b5))``, ``h' = (1 - z) h~ + z h``: ONNX's
GRU with ``linear_before_reset=1`` and its gates in the order z, r, h.
Sequences shorter than the first (smaller batches at later time steps) are
padded with zeros and given to GRU as ``sequence_lens``.
"""

import numpy as np

import chainerlite
from chainerlite.onnx import onnx_helper
from chainerlite.onnx.converters import _util
from chainerlite.onnx.converters.converter import register

_GATES = (1, 0, 2)  # n_step_gru's r, z, h weights in ONNX's z, r, h order


def _names_of(func, input_names, context):
    # the name of each array argument: the node's inputs in order, and
    # constants for arrays given as plain arrays
    names = iter(input_names)

    def name(value, label):
        if value is None:
            return None
        if isinstance(value, chainerlite.Variable):
            return next(names)
        return _util.const(context, np.asarray(value), label)

    _, _, hx, ws, bs, xs = func.args
    return (
        name(hx, 'hx'),
        [
            [name(w, 'w{}_{}'.format(i, j)) for j, w in enumerate(ws_i)]
            for i, ws_i in enumerate(ws)
        ],
        [
            [name(b, 'b{}_{}'.format(i, j)) for j, b in enumerate(bs_i)]
            for i, bs_i in enumerate(bs)
        ],
        [name(x, 'x{}'.format(t)) for t, x in enumerate(xs)],
    )


def _joined(gb, parts, order):
    # the given weights or biases one after another, with a leading axis of 1
    return gb.op(
        'Unsqueeze', [gb.op('Concat', [parts[i] for i in order], axis=0)], axes=[0]
    )


def _split0(gb, name, n):
    # `name` cut along axis 0 into n pieces of one row
    if n == 1:
        return [name]
    return list(gb.op('Split', [name], num_outputs=n, axis=0, split=[1] * n))


def _padded_rows(gb, context, opset_version, name, rows, total, step):
    # (rows, k) -> (total, k) with zero rows appended
    if rows == total:
        return name
    pads = [0, 0, total - rows, 0]
    if opset_version >= 11:
        pads_name = _util.int64s(context, pads, 'pads{}'.format(step))
        return gb.op('Pad', [name, pads_name])
    return gb.op('Pad', [name], pads=pads)


@register('n_step_gru', opsets=(7, 10, 11))
def convert_n_step_gru(func, opset_version, input_names, output_names, context):
    n_layers, dropout_ratio, hx, ws, _, xs = func.args
    hx_name, w_names, b_names, x_names = _names_of(func, input_names, context)
    hidden = int(ws[0][0].shape[0])
    batches = [int(x.shape[0]) for x in xs]
    batch, steps = batches[0], len(xs)
    lengths = [sum(1 for b in batches if b > i) for i in range(batch)]
    gb = onnx_helper.GraphBuilder()
    seq = gb.op(
        'Concat',
        [
            gb.op(
                'Unsqueeze',
                [_padded_rows(gb, context, opset_version, x, b, batch, step)],
                axes=[0],
            )
            for step, (x, b) in enumerate(zip(x_names, batches))
        ],
        axis=0,
    )
    seq_lens = ''
    if any(n != steps for n in lengths):
        seq_lens = _util.const(context, lengths, 'sequence_lens', np.int32)
    if hx_name is None:
        hx_name = _util.const(
            context, np.zeros((n_layers, batch, hidden), xs[0].dtype), 'hx'
        )
    h0s = _split0(gb, hx_name, n_layers)
    finals = []
    for layer in range(n_layers):
        if layer and chainerlite.config.train and dropout_ratio > 0:
            seq = gb.op('Dropout', [seq], ratio=float(dropout_ratio))
        w, b = w_names[layer], b_names[layer]
        y, y_h = gb.op(
            'GRU',
            [
                seq,
                _joined(gb, w, _GATES),
                _joined(gb, w, [3 + g for g in _GATES]),
                _joined(gb, b, list(_GATES) + [3 + g for g in _GATES]),
                seq_lens,
                h0s[layer],
            ],
            num_outputs=2,
            hidden_size=hidden,
            linear_before_reset=1,
        )
        finals.append(y_h)
        seq = gb.op('Squeeze', [y], axes=[1])
    hy_name, ys_names = func.reconstruct_return_value(output_names)
    if n_layers == 1:
        gb.op_output_named('Identity', finals, [hy_name])
    else:
        gb.op_output_named('Concat', finals, [hy_name], axis=0)
    for step, (y_t, rows, out) in enumerate(
        zip(_split0(gb, seq, steps), batches, ys_names)
    ):
        if rows == batch:
            gb.op_output_named('Squeeze', [y_t], [out], axes=[0])
            continue
        y_t = gb.op('Squeeze', [y_t], axes=[0])
        if opset_version >= 10:
            names = [
                y_t,
                _util.int64s(context, [0], 'starts{}'.format(step)),
                _util.int64s(context, [rows], 'ends{}'.format(step)),
            ]
            gb.op_output_named('Slice', names, [out])
        else:
            gb.op_output_named('Slice', [y_t], [out], axes=[0], starts=[0], ends=[rows])
    return gb.nodes()
