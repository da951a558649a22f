"""``GetItem``: basic indexing (ints, slices, None, Ellipsis) and one index array."""

import numpy as np

from chainerlite.onnx import onnx_helper
from chainerlite.onnx.converters import _util
from chainerlite.onnx.converters.converter import register

_INT_MAX = np.iinfo(np.int64).max


def _expand(slices, ndim):
    slices = list(slices) if isinstance(slices, tuple) else [slices]
    n_real = sum(1 for s in slices if s is not None and s is not Ellipsis)
    out = []
    for s in slices:
        if s is Ellipsis:
            out.extend([slice(None)] * (ndim - n_real))
            n_real = ndim  # only the first Ellipsis expands
        else:
            out.append(s)
    out.extend([slice(None)] * (ndim - sum(1 for s in out if s is not None)))
    return out


@register('GetItem', opsets=(1, 10))
def convert_get_item(func, opset_version, input_names, output_names, context):
    shape = _util.in_shape(func)
    items = _expand(func.slices, len(shape))
    starts, ends, steps, axes = [], [], [], []
    squeeze, unsqueeze, gathers = [], [], []
    axis = 0  # axis of the input
    out_axis = 0  # axis of the result after squeezes/unsqueezes
    for item in items:
        if item is None:
            unsqueeze.append(out_axis)
            out_axis += 1
            continue
        if isinstance(item, slice):
            start, stop, step = item.indices(shape[axis])
            if (start, stop, step) != (0, shape[axis], 1):
                if step != 1 and opset_version < 10:
                    raise ValueError('GetItem: a slice step needs opset >= 10')
                if step < 0 and stop < 0:
                    stop = -_INT_MAX
                starts.append(start)
                ends.append(stop)
                steps.append(step)
                axes.append(axis)
            out_axis += 1
        elif np.ndim(item) == 0 and not isinstance(item, (bool, np.bool_)):
            index = int(item)
            index = index + shape[axis] if index < 0 else index
            starts.append(index)
            ends.append(index + 1)
            steps.append(1)
            axes.append(axis)
            squeeze.append(axis)
        else:
            gathers.append((axis, out_axis, np.asarray(item)))
            out_axis += 1
        axis += 1
    if len(gathers) > 1:
        raise ValueError('GetItem: only one index array can be exported')
    gb = onnx_helper.GraphBuilder()
    x = input_names[0]
    if axes:
        if opset_version < 10:
            x = gb.op('Slice', [x], axes=axes, starts=starts, ends=ends)
        else:
            x = gb.op(
                'Slice',
                [
                    x,
                    _util.int64s(context, starts, 'starts'),
                    _util.int64s(context, ends, 'ends'),
                    _util.int64s(context, axes, 'axes'),
                    _util.int64s(context, steps, 'steps'),
                ],
            )
    if gathers:
        g_axis, _, index = gathers[0]
        removed = sum(1 for s in squeeze if s < g_axis)
        x = gb.op(
            'Gather',
            [x, _util.const(context, index, 'indices', np.int64)],
            axis=g_axis - removed,
        )
    if squeeze:
        x = gb.op('Squeeze', [x], axes=squeeze)
    if unsqueeze:
        x = gb.op('Unsqueeze', [x], axes=unsqueeze)
    if not gb.nodes():
        gb.op('Identity', [x])
    return gb.nodes(output_names)
