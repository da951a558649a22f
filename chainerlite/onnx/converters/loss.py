"""Softmax cross entropy: hard labels (ignore_label, class_weight, normalize)
or soft targets, N-d scores, reduce 'mean' or 'no'."""

import numpy as np
import onnx

from chainerlite.onnx import onnx_helper
from chainerlite.onnx.converters import _util
from chainerlite.onnx.converters.converter import register


def _label_weights(gb, func, t, context, dtype, last):
    # the one-hot weights of the labels (zero where ignored) times the class
    # weight, and the mask of the labels that count
    n_class = _util.in_shape(func)[1]
    t = gb.op('Cast', [t], to=onnx.TensorProto.INT64)
    ignore = _util.const(context, func.ignore_label, 'ignore_label', np.int64)
    valid = gb.op('Not', [gb.op('Equal', [t, ignore])])
    label = gb.op('Where', [valid, t, _util.const(context, 0, 'zero', np.int64)])
    classes = _util.const(context, np.arange(n_class), 'classes', np.int64)
    hit = gb.op('Equal', [gb.op('Unsqueeze', [label], axes=[last]), classes])
    to = onnx.helper.np_dtype_to_tensor_dtype(dtype)
    scale = gb.op('Cast', [valid], to=to)
    if func.class_weight is not None:
        weight = _util.const(context, func.class_weight, 'class_weight', dtype)
        scale = gb.op('Mul', [scale, gb.op('Gather', [weight, label], axis=0)])
    weights = gb.op(
        'Mul', [gb.op('Cast', [hit], to=to), gb.op('Unsqueeze', [scale], axes=[last])]
    )
    return weights, gb.op('Cast', [valid], to=to)


@register('SoftmaxCrossEntropy', opsets=(9,))
def convert_softmax_cross_entropy(
    func, opset_version, input_names, output_names, context
):
    shape = _util.in_shape(func)
    dtype = _util.in_dtype(func)
    soft = _util.in_dtype(func, 1).kind == 'f'
    last = len(shape) - 1
    # the class axis goes last: LogSoftmax before opset 13 flattens the
    # axes after the one it is given
    perm = [0] + list(range(2, len(shape))) + [1]
    gb = onnx_helper.GraphBuilder()
    x, t = input_names
    if last > 1:
        x = gb.op('Transpose', [x], perm=perm)
    log_p = gb.op('LogSoftmax', [x], axis=last)
    if soft:
        weights = gb.op('Transpose', [t], perm=perm) if last > 1 else t
        count = _util.const(context, np.prod(shape) // shape[1], 'count', dtype)
    else:
        weights, valid = _label_weights(gb, func, t, context, dtype, last)
        if func.normalize:
            one = _util.const(context, 1, 'one', dtype)
            count = gb.op('Max', [gb.op('ReduceSum', [valid], keepdims=0), one])
        else:
            count = _util.const(context, shape[0], 'count', dtype)
    loss = gb.op(
        'Neg',
        [gb.op('ReduceSum', [gb.op('Mul', [weights, log_p])], axes=[last], keepdims=0)],
    )
    if soft and func.soft_target_loss == 'kl-divergence':
        # plus the targets' own entropy term, sum t log t (0 log 0 = 0)
        one = _util.const(context, 1, 'one', dtype)
        zero = _util.const(context, 0, 'zero', dtype)
        positive = gb.op('Where', [gb.op('Greater', [weights, zero]), weights, one])
        entropy = gb.op('Mul', [weights, gb.op('Log', [positive])])
        entropy = gb.op('ReduceSum', [entropy], axes=[last], keepdims=0)
        loss = gb.op('Add', [loss, entropy])
    if func.reduce == 'mean':
        gb.op('Div', [gb.op('ReduceSum', [loss], keepdims=0), count])
    else:
        gb.op('Identity', [loss])
    return gb.nodes(output_names)
