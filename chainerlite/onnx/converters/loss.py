"""Softmax cross entropy."""

import numpy as np
import onnx

from chainerlite.onnx import onnx_helper
from chainerlite.onnx.converters import _util
from chainerlite.onnx.converters.converter import register


@register('SoftmaxCrossEntropy', opsets=(9,))
def convert_softmax_cross_entropy(
    func, opset_version, input_names, output_names, context
):
    shape = _util.in_shape(func)
    if len(shape) != 2:
        raise ValueError('SoftmaxCrossEntropy: only 2-d scores can be exported')
    if getattr(func, 'reduce', 'mean') != 'mean':
        raise ValueError("SoftmaxCrossEntropy: only reduce='mean' can be exported")
    dtype = _util.in_dtype(func)
    depth = _util.const(context, shape[1], 'depth', np.int64)
    values = _util.const(context, np.array([0, 1], dtype), 'onehot_values')
    count = _util.const(context, np.array(shape[0], dtype), 'count')
    gb = onnx_helper.GraphBuilder()
    log_p = gb.op('LogSoftmax', [input_names[0]], axis=1)
    t = gb.op('Cast', [input_names[1]], to=onnx.TensorProto.INT64)
    onehot = gb.op('OneHot', [t, depth, values], axis=1)
    picked = gb.op('Mul', [log_p, onehot])
    total = gb.op('ReduceSum', [picked], keepdims=0)
    total = gb.op('Neg', [total])
    gb.op('Div', [total, count])
    return gb.nodes(output_names)
