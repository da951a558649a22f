"""Batch, group, local response and L2 normalisation."""

import numpy as np

from chainerlite.onnx import onnx_helper
from chainerlite.onnx.converters import _util
from chainerlite.onnx.converters.converter import register


def _reduced_axes(func, ndim):
    axis = getattr(func, 'axis', None)
    if axis is None:
        return (0,) + tuple(range(2, ndim))
    return tuple(axis)


@register('BatchNormalization', 'FixedBatchNormalization', opsets=(7,))
def convert_batch_normalization(
    func, opset_version, input_names, output_names, context
):
    fixed = len(func.inputs) > 3
    variable_of = context.variable_of
    gamma = variable_of(func.inputs[1])
    beta = variable_of(func.inputs[2])
    owner = context.get_link(beta) or context.get_link(gamma)
    if fixed and owner is not None:
        mean, var = owner[1].avg_mean, owner[1].avg_var
    elif fixed:
        mean = variable_of(func.inputs[3]).array
        var = variable_of(func.inputs[4]).array
    else:
        x = variable_of(func.inputs[0]).array
        axes = _reduced_axes(func, x.ndim)
        mean, var = x.mean(axis=axes), x.var(axis=axes)

    def add(array, suffix):
        if owner is None:
            return context.add_param(array, suffix)
        return context.add_param(
            array, '{}_{}'.format(owner[0], suffix), use_original_name=True
        )

    names = list(input_names)
    if fixed:
        for i, suffix, array in ((3, 'avg_mean', mean), (4, 'avg_var', var)):
            if context.implicit_inputs.pop(names[i], None) is not None:
                names[i] = add(array, suffix)
    else:
        names += [add(mean, 'avg_mean'), add(var, 'avg_var')]
    return _util.single(
        'BatchNormalization',
        names,
        output_names,
        epsilon=float(func.eps),
        momentum=float(getattr(func, 'decay', 0.0)),
    )


@register('GroupNormalization', opsets=(6,))
def convert_group_normalization(
    func, opset_version, input_names, output_names, context
):
    shape = _util.in_shape(func)
    dtype = _util.in_dtype(func)
    n, c = shape[0], shape[1]
    rows = n * func.groups
    gb = onnx_helper.GraphBuilder()
    h = gb.op(
        'Reshape', [input_names[0], _util.int64s(context, [1, rows, -1], 'grouped')]
    )
    ones = _util.const(context, np.ones(rows, dtype), 'ones')
    zeros = _util.const(context, np.zeros(rows, dtype), 'zeros')
    h = gb.op('InstanceNormalization', [h, ones, zeros], epsilon=float(func.eps))
    h = gb.op('Reshape', [h, _util.int64s(context, shape, 'shape')])
    side = _util.int64s(context, [c] + [1] * (len(shape) - 2), 'side')
    gamma = gb.op('Reshape', [input_names[1], side])
    beta = gb.op('Reshape', [input_names[2], side])
    h = gb.op('Mul', [h, gamma])
    gb.op('Add', [h, beta])
    return gb.nodes(output_names)


@register('LocalResponseNormalization', opsets=(1,))
def convert_lrn(func, opset_version, input_names, output_names, context):
    size = 2 * func.half + 1
    # ONNX divides alpha by the window size; Chainer does not
    return _util.single(
        'LRN',
        input_names,
        output_names,
        alpha=float(func.alpha) * size,
        beta=float(func.beta),
        bias=float(func.k),
        size=size,
    )


@register('NormalizeL2', opsets=(1,))
def convert_normalize_l2(func, opset_version, input_names, output_names, context):
    ndim = len(_util.in_shape(func))
    axes = [_util.norm_axis(a, ndim) for a in func.axis]
    eps = _util.const(context, func.eps, 'eps', _util.in_dtype(func))
    gb = onnx_helper.GraphBuilder()
    sq = gb.op('Mul', [input_names[0], input_names[0]])
    total = gb.op('ReduceSum', [sq], axes=axes, keepdims=1)
    norm = gb.op('Sqrt', [total])
    norm = gb.op('Add', [norm, eps])
    gb.op('Div', [input_names[0], norm])
    return gb.nodes(output_names)
