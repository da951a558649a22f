"""Array manipulation: shapes, axes, joins, splits, indexing."""

import numpy as np
from onnx.helper import np_dtype_to_tensor_dtype

from chainerlite.onnx import onnx_helper
from chainerlite.onnx.converters import _util
from chainerlite.onnx.converters.converter import register


@register('Cast', opsets=(6,))
def convert_cast(func, opset_version, input_names, output_names, context):
    out = func.outputs[0]()
    dtype = np.dtype(getattr(func, 'type', None) or out.dtype)
    return _util.single(
        'Cast', input_names, output_names, to=np_dtype_to_tensor_dtype(dtype)
    )


@register('Copy', opsets=(1,))
def convert_copy(func, opset_version, input_names, output_names, context):
    return _util.single('Identity', input_names, output_names)


@register('Concat', opsets=(1,))
def convert_concat(func, opset_version, input_names, output_names, context):
    ndim = len(_util.in_shape(func))
    return _util.single(
        'Concat', input_names, output_names, axis=_util.norm_axis(func.axis, ndim)
    )


@register('Depth2Space', opsets=(1,))
def convert_depth2space(func, opset_version, input_names, output_names, context):
    return _util.single('DepthToSpace', input_names, output_names, blocksize=func.r)


@register('Space2Depth', opsets=(1,))
def convert_space2depth(func, opset_version, input_names, output_names, context):
    return _util.single('SpaceToDepth', input_names, output_names, blocksize=func.r)


def _transpose(perm):
    def nodes(input_names, output_names):
        return _util.single('Transpose', input_names, output_names, perm=list(perm))

    return nodes


@register('Transpose', opsets=(1,))
def convert_transpose(func, opset_version, input_names, output_names, context):
    ndim = len(_util.in_shape(func))
    axes = func.axes
    perm = (
        list(reversed(range(ndim)))
        if axes is None
        else [_util.norm_axis(a, ndim) for a in axes]
    )
    return _transpose(perm)(input_names, output_names)


@register('Swapaxes', opsets=(1,))
def convert_swapaxes(func, opset_version, input_names, output_names, context):
    ndim = len(_util.in_shape(func))
    perm = list(range(ndim))
    a, b = _util.norm_axis(func.axis1, ndim), _util.norm_axis(func.axis2, ndim)
    perm[a], perm[b] = perm[b], perm[a]
    return _transpose(perm)(input_names, output_names)


@register('Moveaxis', opsets=(1,))
def convert_moveaxis(func, opset_version, input_names, output_names, context):
    ndim = len(_util.in_shape(func))
    source = np.atleast_1d(func.source).tolist()
    destination = np.atleast_1d(func.destination).tolist()
    source = [_util.norm_axis(a, ndim) for a in source]
    destination = [_util.norm_axis(a, ndim) for a in destination]
    perm = [a for a in range(ndim) if a not in source]
    for dst, src in sorted(zip(destination, source)):
        perm.insert(dst, src)
    return _transpose(perm)(input_names, output_names)


@register('Rollaxis', opsets=(1,))
def convert_rollaxis(func, opset_version, input_names, output_names, context):
    ndim = len(_util.in_shape(func))
    axis = _util.norm_axis(func.axis, ndim)
    start = _util.norm_axis(func.start, ndim)
    perm = list(range(ndim))
    perm.remove(axis)
    perm.insert(start - 1 if start > axis else start, axis)
    return _transpose(perm)(input_names, output_names)


@register('Reshape', opsets=(5,))
def convert_reshape(func, opset_version, input_names, output_names, context):
    # F.reshape holds its shape; a replaced function named 'Reshape'
    # (as_funcnode) takes it as its second input, a shape computed at run time
    if len(input_names) == 2 and not hasattr(func, 'shape'):
        return _util.single('Reshape', input_names, output_names)
    if len(input_names) != 1 or not hasattr(func, 'shape'):
        raise ValueError(
            'Reshape: the shape must be the function\'s parameter or its '
            'second input, got {} inputs'.format(len(input_names))
        )
    shape = _util.int64s(context, func.shape, 'shape')
    return _util.single('Reshape', [input_names[0], shape], output_names)


@register('Shape', opsets=(1,))
def convert_shape(func, opset_version, input_names, output_names, context):
    # for a replaced function named 'Shape' returning x.shape as int64
    return _util.single('Shape', input_names, output_names)


@register('ExpandDims', opsets=(1,))
def convert_expand_dims(func, opset_version, input_names, output_names, context):
    ndim = len(_util.in_shape(func)) + 1
    axis = _util.norm_axis(func.axis, ndim)
    return _util.single('Unsqueeze', input_names, output_names, axes=[axis])


@register('Squeeze', opsets=(1,))
def convert_squeeze(func, opset_version, input_names, output_names, context):
    shape = _util.in_shape(func)
    if func.axis is None:
        axes = [i for i, n in enumerate(shape) if n == 1]
    else:
        axes = [_util.norm_axis(a, len(shape)) for a in func.axis]
    return _util.single('Squeeze', input_names, output_names, axes=axes)


@register('Tile', opsets=(6,))
def convert_tile(func, opset_version, input_names, output_names, context):
    shape = _util.in_shape(func)
    reps = tuple(func.reps) if isinstance(func.reps, (tuple, list)) else (func.reps,)
    gb = onnx_helper.GraphBuilder()
    x = input_names[0]
    if len(reps) > len(shape):
        new_shape = (1,) * (len(reps) - len(shape)) + shape
        x = gb.op('Reshape', [x, _util.int64s(context, new_shape, 'shape')])
    reps = (1,) * (len(shape) - len(reps)) + reps
    gb.op('Tile', [x, _util.int64s(context, reps, 'repeats')])
    return gb.nodes(output_names)


@register('Repeat', opsets=(6,))
def convert_repeat(func, opset_version, input_names, output_names, context):
    repeats = func.repeats
    if len(repeats) != 1:
        raise ValueError(
            'Repeat: ONNX export supports one repeat count for every element, '
            'got {}'.format(repeats)
        )
    shape = _util.in_shape(func)
    gb = onnx_helper.GraphBuilder()
    x = input_names[0]
    axis = func.axis
    if axis is None:
        x = gb.op('Reshape', [x, _util.int64s(context, [-1], 'flat')])
        shape, axis = (int(np.prod(shape)),), 0
    axis = _util.norm_axis(axis, len(shape))
    x = gb.op('Unsqueeze', [x], axes=[axis + 1])
    reps = [1] * (len(shape) + 1)
    reps[axis + 1] = repeats[0]
    x = gb.op('Tile', [x, _util.int64s(context, reps, 'repeats')])
    out_shape = list(shape)
    out_shape[axis] *= repeats[0]
    gb.op('Reshape', [x, _util.int64s(context, out_shape, 'shape')])
    return gb.nodes(output_names)


@register('Pad', opsets=(2, 11))
def convert_pad(func, opset_version, input_names, output_names, context):
    ndim = len(_util.in_shape(func))
    width = np.broadcast_to(np.asarray(func.pad_width, dtype=np.int64), (ndim, 2))
    pads = [int(p) for p in width[:, 0]] + [int(p) for p in width[:, 1]]
    mode = func.mode
    if mode not in ('constant', 'reflect', 'edge'):
        raise ValueError('Pad: mode {!r} has no ONNX equivalent'.format(mode))
    value = func.keywords.get('constant_values', 0) if mode == 'constant' else 0
    if np.ndim(value) != 0:
        raise ValueError('Pad: only a scalar constant_values can be exported')
    if opset_version < 11:
        return _util.single(
            'Pad', input_names, output_names, mode=mode, pads=pads, value=float(value)
        )
    names = [input_names[0], _util.int64s(context, pads, 'pads')]
    if mode == 'constant':
        names.append(_util.const(context, value, 'value', _util.in_dtype(func)))
    return _util.single('Pad', names, output_names, mode=mode)


@register('Stack', opsets=(1,))
def convert_stack(func, opset_version, input_names, output_names, context):
    ndim = len(_util.in_shape(func)) + 1
    axis = _util.norm_axis(func.axis, ndim)
    gb = onnx_helper.GraphBuilder()
    parts = [gb.op('Unsqueeze', [name], axes=[axis]) for name in input_names]
    gb.op('Concat', parts, axis=axis)
    return gb.nodes(output_names)


def _stack_family(min_ndim, axis_of):
    # vstack/hstack/dstack: inputs raised to `min_ndim` dims as NumPy does
    def convert(func, opset_version, input_names, output_names, context):
        gb = onnx_helper.GraphBuilder()
        parts = []
        ndim = len(_util.in_shape(func))
        for i, name in enumerate(input_names):
            shape = _util.in_shape(func, i)
            target = _atleast(shape, min_ndim)
            if target != shape:
                name = gb.op(
                    'Reshape',
                    [name, _util.int64s(context, target, 'shape{}'.format(i))],
                )
            parts.append(name)
        gb.op('Concat', parts, axis=axis_of(ndim))
        return gb.nodes(output_names)

    return convert


def _atleast(shape, ndim):
    if len(shape) >= ndim:
        return shape
    if ndim == 1:
        return (1,)
    if ndim == 2:
        return (1,) + shape if shape else (1, 1)
    if not shape:
        return (1, 1, 1)
    if len(shape) == 1:
        return (1,) + shape + (1,)
    return shape + (1,)


register('Vstack', opsets=(1,))(_stack_family(2, lambda ndim: 0))
register('Hstack', opsets=(1,))(_stack_family(1, lambda ndim: 0 if ndim <= 1 else 1))
register('Dstack', opsets=(1,))(_stack_family(3, lambda ndim: 2))


def _split_sizes(func):
    if hasattr(func, '_shapes'):
        return [s[func.axis] for s in func._shapes]
    length = _util.in_shape(func)[func.axis]
    ios = func.indices_or_sections
    if np.isscalar(ios):
        return [length // ios] * ios
    bounds = [0] + list(ios) + [length]
    return [b - a for a, b in zip(bounds[:-1], bounds[1:])]


@register('SplitAxis', opsets=(2,))
def convert_split_axis(func, opset_version, input_names, output_names, context):
    ndim = len(_util.in_shape(func))
    return _util.single(
        'Split',
        input_names,
        output_names,
        axis=_util.norm_axis(func.axis, ndim),
        split=[int(s) for s in _split_sizes(func)],
    )


@register('Separate', opsets=(2,))
def convert_separate(func, opset_version, input_names, output_names, context):
    shape = _util.in_shape(func)
    axis = _util.norm_axis(func.axis, len(shape))
    gb = onnx_helper.GraphBuilder()
    if shape[axis] == 1:
        gb.op('Squeeze', input_names, axes=[axis])
        return gb.nodes(output_names)
    parts = gb.op(
        'Split',
        input_names,
        num_outputs=shape[axis],
        axis=axis,
        split=[1] * shape[axis],
    )
    for part, out in zip(parts, output_names):
        gb.op_output_named('Squeeze', [part], [out], axes=[axis])
    return gb.nodes()


@register('Where', opsets=(9,))
def convert_where(func, opset_version, input_names, output_names, context):
    if len(input_names) == 3:
        condition = input_names[0]
        x, y = input_names[1:]
    elif context.is_pinned(func.condition):
        # the condition is one of the model's inputs (F.where keeps it as
        # an attribute, not an input of the node)
        condition = context.get_name(func.condition)
        x, y = input_names
    else:
        condition = context.add_const(np.asarray(func.condition), 'condition')
        x, y = input_names
    return _util.single('Where', [condition, x, y], output_names)


@register('Permutate', opsets=(1,))
def convert_permutate(func, opset_version, input_names, output_names, context):
    indices = np.asarray(func.indices)
    if func.inv:
        indices = np.argsort(indices)
    ndim = len(_util.in_shape(func))
    index = _util.const(context, indices, 'indices', np.int64)
    return _util.single(
        'Gather',
        [input_names[0], index],
        output_names,
        axis=_util.norm_axis(func.axis, ndim),
    )


@register('SelectItem', opsets=(1,))
def convert_select_item(func, opset_version, input_names, output_names, context):
    n, c = _util.in_shape(func)
    gb = onnx_helper.GraphBuilder()
    flat = gb.op('Reshape', [input_names[0], _util.int64s(context, [-1], 'flat')])
    t = gb.op('Cast', [input_names[1]], to=np_dtype_to_tensor_dtype(np.dtype(np.int64)))
    offsets = _util.int64s(context, np.arange(n) * c, 'offsets')
    index = gb.op('Add', [t, offsets])
    gb.op('Gather', [flat, index], axis=0)
    return gb.nodes(output_names)


@register('TransposeSequence', opsets=(2,))
def convert_transpose_sequence(func, opset_version, input_names, output_names, context):
    lengths = [_util.in_shape(func, i)[0] for i in range(len(input_names))]
    gb = onnx_helper.GraphBuilder()
    rows = []
    for name, length in zip(input_names, lengths):
        if length == 1:
            rows.append([name])
            continue
        parts = gb.op('Split', [name], num_outputs=length, axis=0, split=[1] * length)
        rows.append(list(parts))
    for t, out in enumerate(output_names):
        pieces = [r[t] for r, length in zip(rows, lengths) if length > t]
        if len(pieces) == 1:
            gb.op_output_named('Identity', pieces, [out])
        else:
            gb.op_output_named('Concat', pieces, [out], axis=0)
    return gb.nodes()
