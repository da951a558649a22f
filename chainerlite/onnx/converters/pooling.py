"""Pooling, unpooling and ROI pooling."""

import warnings

import numpy as np

from chainerlite.onnx import onnx_helper
from chainerlite.onnx.converters import _util
from chainerlite.onnx.converters.converter import register


@register('AveragePooling2D', 'AveragePoolingND', opsets=(7,))
def convert_average_pooling(func, opset_version, input_names, output_names, context):
    if getattr(func, 'cover_all', False):
        raise ValueError(
            '{}: cover_all=True cannot be exported'.format(type(func).__name__)
        )
    return _util.single(
        'AveragePool',
        input_names,
        output_names,
        kernel_shape=list(func.ksize),
        pads=list(func.pad) * 2,
        strides=list(func.stride),
        count_include_pad=int(func.pad_value is not None),
    )


@register('MaxPooling2D', 'MaxPoolingND', opsets=(1, 10))
def convert_max_pooling(func, opset_version, input_names, output_names, context):
    pads = list(func.pad) * 2
    attrs = {}
    if func.cover_all:
        if opset_version >= 10:
            attrs['ceil_mode'] = 1
        else:  # a longer end pad gives the extra window Chainer's cover_all adds
            n = len(func.ksize)
            pads = pads[:n] + [p + s - 1 for p, s in zip(func.pad, func.stride)]
    return _util.single(
        'MaxPool',
        input_names,
        output_names,
        kernel_shape=list(func.ksize),
        pads=pads,
        strides=list(func.stride),
        **attrs,
    )


@register('Unpooling2D', opsets=(7, 9, 10, 11))
def convert_unpooling(func, opset_version, input_names, output_names, context):
    if tuple(func.ksize) != tuple(func.stride) or any(func.pad):
        raise ValueError('Unpooling2D: only ksize == stride and pad 0 can be exported')
    shape = _util.in_shape(func)
    scales = [1.0, 1.0] + [float(k) for k in func.ksize]
    natural = [n * k for n, k in zip(shape[2:], func.ksize)]
    gb = onnx_helper.GraphBuilder()
    if opset_version == 7:
        h = gb.op('Upsample', input_names, scales=scales, mode='nearest')
    else:
        s = _util.const(context, np.array(scales, np.float32), 'scales')
        if opset_version == 9:
            h = gb.op('Upsample', [input_names[0], s], mode='nearest')
        elif opset_version == 10:
            h = gb.op('Resize', [input_names[0], s], mode='nearest')
        else:
            roi = _util.const(context, np.zeros(0, np.float32), 'roi')
            h = gb.op(
                'Resize',
                [input_names[0], roi, s],
                mode='nearest',
                coordinate_transformation_mode='asymmetric',
                nearest_mode='floor',
            )
    if list(func.outs) != natural:
        if opset_version < 10:
            h = gb.op('Slice', [h], axes=[2, 3], starts=[0, 0], ends=list(func.outs))
        else:
            h = gb.op(
                'Slice',
                [
                    h,
                    _util.int64s(context, [0, 0], 'starts'),
                    _util.int64s(context, func.outs, 'ends'),
                    _util.int64s(context, [2, 3], 'axes'),
                ],
            )
    return gb.nodes(output_names)


@register('ROIPooling2D', opsets=(1,))
def convert_roi_pooling(func, opset_version, input_names, output_names, context):
    warnings.warn(
        'ROIPooling2D is exported as MaxRoiPool, which runtimes implement '
        'differently (some give max(output, 0)); check the runtime\'s output '
        'against roi_pooling_2d (ONNX Runtime\'s matches it)',
        UserWarning,
    )
    outsize = getattr(func, 'outsize', None) or (func.outh, func.outw)
    return _util.single(
        'MaxRoiPool',
        input_names,
        output_names,
        pooled_shape=list(outsize),
        spatial_scale=float(func.spatial_scale),
    )
