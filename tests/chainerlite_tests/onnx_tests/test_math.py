"""ArgMax/ArgMin (int32 as Chainer's) and Maximum/Minimum from opset 7."""

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F


@pytest.mark.parametrize('opset', [7, 11])
@pytest.mark.parametrize('op', [F.argmax, F.argmin])
@pytest.mark.parametrize('axis', [None, 0, 1, -1])
def test_argmax_argmin(onnx_matches, op, axis, opset):
    x = np.random.RandomState(0).randn(3, 5).astype(np.float32)
    proto = onnx_matches(chainerlite.Sequential(lambda x: op(x, axis=axis)), x, opset)
    assert proto.graph.node[-1].op_type == 'Cast'


@pytest.mark.parametrize('opset', [7, 8, 11])
@pytest.mark.parametrize('op', [F.maximum, F.minimum])
def test_maximum_minimum(onnx_matches, op, opset):
    rng = np.random.RandomState(1)
    a, b = rng.randn(2, 3, 4).astype(np.float32)
    proto = onnx_matches(chainerlite.Sequential(op), (a, b), opset)
    assert [n.op_type for n in proto.graph.node] == [op.__name__[:3].title()]
