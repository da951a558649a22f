"""Constants of every dtype: float16 ones are written as raw bytes."""

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F


@pytest.mark.parametrize('opset', [9, 11])
@pytest.mark.parametrize(
    'f',
    [
        lambda x: x * 2,
        lambda x: 2 - x,
        lambda x: x**0.5,
        lambda x: F.gaussian_kl_divergence(x, x),
        lambda x: F.selu(x),
    ],
)
def test_float16_constants(onnx_matches, f, opset):
    x = np.random.RandomState(0).uniform(0.1, 0.9, (3, 4)).astype(np.float16)
    proto = onnx_matches(chainerlite.Sequential(f), x, opset, rtol=1e-2, atol=1e-2)
    constants = [n.attribute[0].t for n in proto.graph.node if n.op_type == 'Constant']
    assert constants
    for tensor in constants:
        assert tensor.raw_data and not tensor.int32_data


def test_float32_constants_are_readable(onnx_matches):
    x = np.ones((2, 2), np.float32)
    proto = onnx_matches(chainerlite.Sequential(lambda x: x * 3), x, 11)
    (constant,) = [n for n in proto.graph.node if n.op_type == 'Constant']
    assert list(constant.attribute[0].t.float_data) == [3.0]
