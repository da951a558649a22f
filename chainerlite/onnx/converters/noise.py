"""Dropout (the exported graph is for inference: Dropout passes values on)."""

from chainerlite.onnx.converters import _util
from chainerlite.onnx.converters.converter import register


@register('Dropout', opsets=(7,))
def convert_dropout(func, opset_version, input_names, output_names, context):
    return _util.single(
        'Dropout', input_names, output_names, ratio=float(func.dropout_ratio)
    )
