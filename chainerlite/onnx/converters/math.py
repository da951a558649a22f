"""Arithmetic, elementwise math and reductions."""

import numpy as np
from onnx.helper import np_dtype_to_tensor_dtype

from chainerlite.onnx import onnx_helper
from chainerlite.onnx.converters import _util
from chainerlite.onnx.converters.converter import register


def _elementwise(op):
    def convert(func, opset_version, input_names, output_names, context):
        return _util.single(op, input_names, output_names)

    return convert


for _name, _op, _opset in (
    ('Add', 'Add', 7),
    ('Sub', 'Sub', 7),
    ('Mul', 'Mul', 7),
    ('Div', 'Div', 7),
    ('Neg', 'Neg', 6),
    ('Absolute', 'Abs', 6),
    ('Exp', 'Exp', 6),
    ('Log', 'Log', 6),
    ('Sqrt', 'Sqrt', 6),
    ('Reciprocal', 'Reciprocal', 6),  # F.rsqrt's 1 / sqrt(x)
    ('Sin', 'Sin', 7),
    ('Cos', 'Cos', 7),
    ('Tan', 'Tan', 7),
    ('Arcsin', 'Asin', 7),
    ('Arccos', 'Acos', 7),
    ('Arctan', 'Atan', 7),
    ('Sinh', 'Sinh', 9),
    ('Cosh', 'Cosh', 9),
    ('PowVarVar', 'Pow', 7),
    ('Maximum', 'Max', 6),
    ('Minimum', 'Min', 6),
    ('sign', 'Sign', 9),
):
    register(_name, opsets=(_opset,))(_elementwise(_op))


def _with_constant(op, swap=False):
    def convert(func, opset_version, input_names, output_names, context):
        return _util.const_operand_nodes(
            op, func, input_names, output_names, context, swap=swap
        )

    return convert


@register('MultiAdd', opsets=(7,))
def convert_multi_add(func, opset_version, input_names, output_names, context):
    # F.add of three or more operands: Adds in order (they broadcast)
    if len(input_names) == 1:
        return _util.single('Identity', input_names, output_names)
    gb = onnx_helper.GraphBuilder()
    total = input_names[0]
    for name in input_names[1:]:
        total = gb.op('Add', [total, name])
    return gb.nodes(output_names)


register('AddConstant', opsets=(7,))(_with_constant('Add'))
register('MulConstant', opsets=(7,))(_with_constant('Mul'))
register('SubFromConstant', opsets=(7,))(_with_constant('Sub', swap=True))
register('DivFromConstant', opsets=(7,))(_with_constant('Div', swap=True))
register('PowVarConst', opsets=(7,))(_with_constant('Pow'))
register('PowConstVar', opsets=(7,))(_with_constant('Pow', swap=True))


@register('Square', opsets=(7,))
def convert_square(func, opset_version, input_names, output_names, context):
    return _util.single('Mul', [input_names[0], input_names[0]], output_names)


@register('Identity', opsets=(1,))
def convert_identity(func, opset_version, input_names, output_names, context):
    return tuple(
        onnx_helper.make_node('Identity', [i], [o])
        for i, o in zip(input_names, output_names)
    )


@register('Clip', opsets=(6, 11))
def convert_clip(func, opset_version, input_names, output_names, context):
    if opset_version < 11:
        return _util.single(
            'Clip',
            input_names,
            output_names,
            min=float(func.x_min),
            max=float(func.x_max),
        )
    dtype = _util.in_dtype(func)
    lo = _util.const(context, func.x_min, 'min', dtype)
    hi = _util.const(context, func.x_max, 'max', dtype)
    return _util.single('Clip', [input_names[0], lo, hi], output_names)


def _reduction(op):
    def convert(func, opset_version, input_names, output_names, context):
        attrs = {'keepdims': int(bool(getattr(func, 'keepdims', False)))}
        if func.axis is not None:
            ndim = len(_util.in_shape(func))
            attrs['axes'] = [_util.norm_axis(a, ndim) for a in func.axis]
        return _util.single(op, input_names, output_names, **attrs)

    return convert


for _name, _op in (
    ('Sum', 'ReduceSum'),
    ('Mean', 'ReduceMean'),
    ('Max', 'ReduceMax'),
    ('Min', 'ReduceMin'),
    ('Prod', 'ReduceProd'),
    ('LogSumExp', 'ReduceLogSumExp'),
):
    register(_name, opsets=(1,))(_reduction(_op))


def _arg_reduction(op):
    # ONNX's ArgMax/ArgMin give int64; Chainer's give int32, so a Cast follows
    def convert(func, opset_version, input_names, output_names, context):
        gb = onnx_helper.GraphBuilder()
        x, axis = input_names[0], func.axis
        if axis is None:
            x = gb.op('Reshape', [x, _util.int64s(context, [-1], 'shape')])
            axis = 0
        else:
            axis = _util.norm_axis(axis, len(_util.in_shape(func)))
        index = gb.op(op, [x], axis=axis, keepdims=0)
        gb.op('Cast', [index], to=np_dtype_to_tensor_dtype(np.dtype(np.int32)))
        return gb.nodes(output_names)

    return convert


register('ArgMax', opsets=(6,))(_arg_reduction('ArgMax'))
register('ArgMin', opsets=(6,))(_arg_reduction('ArgMin'))


@register('BroadcastTo', opsets=(8,))
def convert_broadcast_to(func, opset_version, input_names, output_names, context):
    shape = _util.int64s(context, func._shape, 'shape')
    return _util.single('Expand', [input_names[0], shape], output_names)


@register('Broadcast', opsets=(8,))
def convert_broadcast(func, opset_version, input_names, output_names, context):
    # each input expanded to the common shape (Chainer has no converter for
    # its Broadcast node, but composes the losses that broadcast here in one
    # node from broadcasting arithmetic, which exports)
    shapes = [_util.in_shape(func, i) for i in range(len(input_names))]
    shape = _util.int64s(context, np.broadcast_shapes(*shapes), 'shape')
    gb = onnx_helper.GraphBuilder()
    for x, y in zip(input_names, output_names):
        gb.op_output_named('Expand', [x, shape], [y])
    return gb.nodes()


@register('MatMul', opsets=(1,))
def convert_matmul(func, opset_version, input_names, output_names, context):
    gb = onnx_helper.GraphBuilder()
    names = list(input_names)
    for i, flag in enumerate((func.transa, func.transb)):
        ndim = len(_util.in_shape(func, i))
        if flag and ndim >= 2:
            perm = list(range(ndim))
            perm[-1], perm[-2] = perm[-2], perm[-1]
            names[i] = gb.op('Transpose', [names[i]], perm=perm)
    gb.op('MatMul', names)
    return gb.nodes(output_names)


@register('LinearInterpolate', opsets=(7,))
def convert_linear_interpolate(func, opset_version, input_names, output_names, context):
    p, x, y = input_names
    one = _util.const(context, np.array(1, _util.in_dtype(func)), 'one')
    gb = onnx_helper.GraphBuilder()
    px = gb.op('Mul', [p, x])
    q = gb.op('Sub', [one, p])
    qy = gb.op('Mul', [q, y])
    gb.op('Add', [px, qy])
    return gb.nodes(output_names)
