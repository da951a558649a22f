"""ArgMax/ArgMin (int32 as Chainer's), Maximum/Minimum from opset 7, rsqrt."""

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


@pytest.mark.parametrize('opset', [9, 11])
def test_where_condition_given_as_a_model_input(onnx_matches, opset):
    # F.where keeps the condition as an attribute of its node: when it is one
    # of the model's inputs the graph reads that input, not a constant
    cond = np.array([[1, 0, 0], [0, 1, 1]], dtype=bool)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = np.zeros((2, 3), np.float32)
    proto = onnx_matches(chainerlite.Sequential(F.where), (cond, x, y), opset)
    where = [n for n in proto.graph.node if n.op_type == 'Where']
    assert where[0].input[0] == proto.graph.input[0].name
    # the same model on another condition: the input is really read
    import onnxruntime as ort

    session = ort.InferenceSession(
        proto.SerializeToString(), providers=['CPUExecutionProvider']
    )
    names = [i.name for i in proto.graph.input]
    (out,) = session.run(None, dict(zip(names, (~cond, x, y))))
    np.testing.assert_array_equal(out, np.where(~cond, x, y))


@pytest.mark.parametrize('opset', [9, 11])
def test_where_condition_computed_in_the_model(onnx_matches, opset):
    x = np.array([[-1, 2, -3], [4, -5, 6]], dtype=np.float32)
    model = chainerlite.Sequential(lambda x: F.where(x.array > 0, x, x * 0.5))
    proto = onnx_matches(model, x, opset)
    assert any(n.op_type == 'Constant' for n in proto.graph.node)


@pytest.mark.parametrize('opset', [7, 11])
def test_rsqrt_exports_as_sqrt_and_reciprocal(onnx_matches, opset):
    x = np.random.RandomState(2).uniform(0.5, 4.0, (3, 4)).astype(np.float32)
    proto = onnx_matches(chainerlite.Sequential(F.rsqrt), x, opset)
    assert [n.op_type for n in proto.graph.node] == ['Sqrt', 'Reciprocal']


@pytest.mark.parametrize('opset', [7, 11])
def test_add_of_three_operands_exports_as_adds(onnx_matches, opset):
    # F.add of more than two operands is one MultiAdd node, as in Chainer
    rng = np.random.RandomState(3)
    a, c = rng.randn(2, 2, 3).astype(np.float32)
    b = rng.randn(3).astype(np.float32)  # broadcast
    proto = onnx_matches(chainerlite.Sequential(F.add), (a, b, c), opset)
    assert [n.op_type for n in proto.graph.node] == ['Add', 'Add']


@pytest.mark.parametrize('opset', [9, 11])
def test_broadcast_outputs_expand_to_the_common_shape(onnx_matches, opset):
    rng = np.random.RandomState(0)
    args = (
        rng.randn(2, 1, 4).astype(np.float32),
        rng.randn(3, 1).astype(np.float32),
        rng.randn(2, 3, 4).astype(np.float32),
    )
    model = chainerlite.Sequential(lambda *a: F.broadcast(*a))
    onnx_matches(model, args, opset)
