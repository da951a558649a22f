"""Convolutions, deconvolutions, linear and embedding."""

from chainerlite.onnx import onnx_helper
from chainerlite.onnx.converters import _util
from chainerlite.onnx.converters.converter import register


def _window_attrs(params, w_shape):
    return {
        'kernel_shape': list(w_shape[2:]),
        'pads': list(params.pad) * 2,
        'strides': list(params.stride),
        'dilations': list(params.dilate),
        'group': params.groups,
    }


@register('Convolution2DFunction', 'ConvolutionND', opsets=(1,))
def convert_convolution(func, opset_version, input_names, output_names, context):
    params = func.params
    if any(params.cover_all):
        raise ValueError(
            '{}: cover_all=True cannot be exported'.format(type(func).__name__)
        )
    attrs = _window_attrs(params, _util.in_shape(func, 1))
    return _util.single('Conv', input_names, output_names, **attrs)


@register('Deconvolution2DFunction', 'DeconvolutionND', opsets=(1,))
def convert_deconvolution(func, opset_version, input_names, output_names, context):
    params = func.params
    w_shape = _util.in_shape(func, 1)
    attrs = _window_attrs(params, w_shape)
    in_size = _util.in_shape(func)[2:]
    natural = [
        s * (n - 1) + d * (k - 1) + 1 - 2 * p
        for n, k, s, p, d in zip(
            in_size, w_shape[2:], params.stride, params.pad, params.dilate
        )
    ]
    extra = [o - n for o, n in zip(func.outs, natural)]
    if any(extra):
        attrs['output_padding'] = extra
    return _util.single('ConvTranspose', input_names, output_names, **attrs)


@register('LinearFunction', opsets=(7,))
def convert_linear(func, opset_version, input_names, output_names, context):
    if len(input_names) == 3:
        return _util.single('Gemm', input_names, output_names, transB=1)
    gb = onnx_helper.GraphBuilder()
    w = gb.op('Transpose', [input_names[1]], perm=[1, 0])
    gb.op('MatMul', [input_names[0], w])
    return gb.nodes(output_names)


@register('EmbedIDFunction', opsets=(1,))
def convert_embed_id(func, opset_version, input_names, output_names, context):
    if func.ignore_label is not None:
        raise ValueError('EmbedIDFunction: ignore_label cannot be exported')
    return _util.single(
        'Gather', [input_names[1], input_names[0]], output_names, axis=0
    )
