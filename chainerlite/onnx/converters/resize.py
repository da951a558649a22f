"""``ResizeImages`` (F.resize_images) as Upsample / Resize."""

import warnings

import numpy as np

from chainerlite.onnx.converters import _util
from chainerlite.onnx.converters.converter import register


@register('ResizeImages', opsets=(7, 9, 10, 11))
def convert_resize_images(func, opset_version, input_names, output_names, context):
    h, w = _util.in_shape(func)[2:]
    out_h, out_w = func.output_shape
    mode = 'linear' if func.mode == 'bilinear' else 'nearest'
    if opset_version >= 11:
        # Resize-11 places the samples as resize_images does: the corners on
        # the corners, or the pixel centres scaled about the middle; nearest
        # takes pixel floor(i * in / out) whatever align_corners
        coordinates = 'align_corners' if func.align_corners else 'half_pixel'
        attrs = {'mode': mode, 'coordinate_transformation_mode': coordinates}
        if mode == 'nearest':
            attrs['coordinate_transformation_mode'] = 'asymmetric'
            attrs['nearest_mode'] = 'floor'
        n, c = _util.in_shape(func)[:2]
        names = [
            input_names[0],
            _util.const(context, [], 'roi', np.float32),
            _util.const(context, [], 'scales', np.float32),
            _util.int64s(context, [n, c, out_h, out_w], 'sizes'),
        ]
        return _util.single('Resize', names, output_names, **attrs)
    warnings.warn(
        'resize_images is exported as the ONNX {} of opset {}, which samples '
        'the input at other points than resize_images (the output is scaled '
        'from the top-left corner): the values differ; opset 11 gives '
        "resize_images' values".format(
            'Upsample' if opset_version < 10 else 'Resize', opset_version
        ),
        UserWarning,
    )
    scales = [1.0, 1.0, out_h / h, out_w / w]
    if opset_version == 7:
        return _util.single(
            'Upsample', input_names, output_names, scales=scales, mode=mode
        )
    names = [input_names[0], _util.const(context, scales, 'scales', np.float32)]
    op = 'Upsample' if opset_version == 9 else 'Resize'
    return _util.single(op, names, output_names, mode=mode)
