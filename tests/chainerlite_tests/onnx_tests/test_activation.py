"""maxout exports as a Reshape and a ReduceMax over the pool."""

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F


@pytest.mark.parametrize('opset', [9, 11])
@pytest.mark.parametrize(
    'shape, pool_size, axis',
    [((3, 4), 2, 1), ((2, 6, 3), 3, 1), ((2, 3, 4), 2, -1), ((4, 2), 4, 0)],
)
def test_maxout(onnx_matches, shape, pool_size, axis, opset):
    x = np.random.RandomState(0).randn(*shape).astype(np.float32)
    model = chainerlite.Sequential(lambda x: F.maxout(x, pool_size, axis=axis))
    proto = onnx_matches(model, x, opset)
    assert [n.op_type for n in proto.graph.node if n.op_type != 'Constant'] == [
        'Reshape',
        'ReduceMax',
    ]


def test_maxout_float64(onnx_matches):
    x = np.random.RandomState(1).randn(2, 6).astype(np.float64)
    onnx_matches(chainerlite.Sequential(lambda x: F.maxout(x, 3)), x, 11)
