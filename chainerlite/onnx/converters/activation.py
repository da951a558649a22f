"""Activation functions."""

import numpy as np

from chainerlite.onnx import onnx_helper
from chainerlite.onnx.converters import _util
from chainerlite.onnx.converters.converter import register


def _simple(op, **attrs):
    def convert(func, opset_version, input_names, output_names, context):
        return _util.single(op, input_names, output_names, **attrs)

    return convert


for _name, _op in (('ReLU', 'Relu'), ('Sigmoid', 'Sigmoid'), ('Tanh', 'Tanh')):
    register(_name, opsets=(6,))(_simple(_op))


@register('ClippedReLU', opsets=(6, 11))
def convert_clipped_relu(func, opset_version, input_names, output_names, context):
    if opset_version < 11:
        return _util.single(
            'Clip', input_names, output_names, min=0.0, max=float(func.cap)
        )
    dtype = _util.in_dtype(func)
    lo = _util.const(context, 0, 'min', dtype)
    hi = _util.const(context, func.cap, 'max', dtype)
    return _util.single('Clip', [input_names[0], lo, hi], output_names)


@register('ELU', opsets=(6,))
def convert_elu(func, opset_version, input_names, output_names, context):
    return _util.single('Elu', input_names, output_names, alpha=float(func.alpha))


@register('HardSigmoid', opsets=(6,))
def convert_hard_sigmoid(func, opset_version, input_names, output_names, context):
    return _util.single('HardSigmoid', input_names, output_names, alpha=0.2, beta=0.5)


@register('LeakyReLU', opsets=(6,))
def convert_leaky_relu(func, opset_version, input_names, output_names, context):
    return _util.single('LeakyRelu', input_names, output_names, alpha=float(func.slope))


def _softmax_like(op):
    # ONNX (before opset 13) flattens everything from `axis` on; Chainer
    # normalises one axis, so that axis is moved last around the op.
    def convert(func, opset_version, input_names, output_names, context):
        ndim = len(_util.in_shape(func))
        axis = _util.norm_axis(func.axis, ndim)
        if axis == ndim - 1:
            return _util.single(op, input_names, output_names, axis=axis)
        perm = _util.transpose_pair(axis, ndim)
        gb = onnx_helper.GraphBuilder()
        h = gb.op('Transpose', input_names, perm=perm)
        h = gb.op(op, [h], axis=ndim - 1)
        gb.op('Transpose', [h], perm=perm)
        return gb.nodes(output_names)

    return convert


register('Softmax', opsets=(1,))(_softmax_like('Softmax'))
register('LogSoftmax', opsets=(1,))(_softmax_like('LogSoftmax'))


@register('PReLUFunction', opsets=(7,))
def convert_prelu(func, opset_version, input_names, output_names, context):
    x_ndim = len(_util.in_shape(func))
    w_shape = _util.in_shape(func, 1)
    # Chainer's slope lines up with axis 1; ONNX broadcasts from the right
    pad = x_ndim - 1 - len(w_shape)
    if pad <= 0:
        return _util.single('PRelu', input_names, output_names)
    gb = onnx_helper.GraphBuilder()
    shape = _util.int64s(context, w_shape + (1,) * pad, 'shape')
    w = gb.op('Reshape', [input_names[1], shape])
    gb.op('PRelu', [input_names[0], w])
    return gb.nodes(output_names)


@register('Softplus', opsets=(1,))
def convert_softplus(func, opset_version, input_names, output_names, context):
    if func.beta == 1:
        return _util.single('Softplus', input_names, output_names)
    dtype = _util.in_dtype(func)
    beta = _util.const(context, np.array(func.beta, dtype), 'beta')
    beta_inv = _util.const(context, np.array(func.beta_inv, dtype), 'beta_inv')
    gb = onnx_helper.GraphBuilder()
    h = gb.op('Mul', [input_names[0], beta])
    h = gb.op('Softplus', [h])
    gb.op('Mul', [h, beta_inv])
    return gb.nodes(output_names)


@register('Maxout', opsets=(5,))
def convert_maxout(func, opset_version, input_names, output_names, context):
    # the pooled axis split into (groups, pool_size), then the max over the pool
    shape = _util.in_shape(func)
    axis = _util.norm_axis(func.axis, len(shape))
    pooled = shape[:axis] + (shape[axis] // func.pool_size, func.pool_size)
    pooled += shape[axis + 1 :]
    gb = onnx_helper.GraphBuilder()
    h = gb.op('Reshape', [input_names[0], _util.int64s(context, pooled, 'shape')])
    gb.op('ReduceMax', [h], axes=[axis + 1], keepdims=0)
    return gb.nodes(output_names)
