"""chainerlite.onnx: exported graphs run in ONNX Runtime with chainerlite's results."""

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
import chainerlite.links as L

onnx = pytest.importorskip('onnx', reason='the onnx package is not installed')
ort = pytest.importorskip('onnxruntime', reason='onnxruntime is not installed')

from chainerlite.onnx import export  # noqa: E402
from chainerlite.onnx.replace_func import fake_as_funcnode  # noqa: E402
from chainerlite.onnx.retain import RetainInputHook  # noqa: E402


def _run(model_proto, feeds):
    session = ort.InferenceSession(
        model_proto.SerializeToString(), providers=['CPUExecutionProvider']
    )
    return session.run(None, feeds)


class _Net(chainerlite.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(3, 4, 3, pad=1)
            self.bn = L.BatchNormalization(4)
            self.fc = L.Linear(None, 5)

    def forward(self, x):
        h = F.relu(self.bn(self.conv(x)))
        h = F.max_pooling_2d(h, 2)
        return F.softmax(self.fc(h) + np.float32(1), axis=0)


@pytest.mark.parametrize('opset', [7, 9, 11])
def test_cnn_matches_onnxruntime(opset):
    x = np.random.RandomState(0).randn(2, 3, 8, 8).astype(np.float32)
    model = _Net()
    proto = export(model, x, opset_version=opset, input_names=['x'], output_names=['y'])
    assert [i.name for i in proto.graph.output] == ['y']
    with chainerlite.using_config('train', False):
        expected = model(x).array
    (actual,) = _run(proto, {'x': x})
    np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-5)


def test_temporary_constant_becomes_initializer():
    class M(chainerlite.Chain):
        def forward(self, x):
            return x * chainerlite.Variable(np.array(3, np.float32))

    proto = export(M(), np.ones((2,), np.float32))
    assert len(proto.graph.initializer) == 1
    (actual,) = _run(proto, {'Input_0': np.arange(2, dtype=np.float32)})
    np.testing.assert_array_equal(actual, [0, 3])


def test_retain_input_hook_counts_non_link_inputs():
    class M(chainerlite.Chain):
        def forward(self, x):
            return F.stack([x, chainerlite.Variable(np.array(7, np.float32))])

    with RetainInputHook() as hook:
        M()(chainerlite.Variable(np.array(3, np.float32)))
    assert len(hook.retain_inputs) == 1


def test_external_converter_and_replaced_function():
    def converter(params):
        return (onnx.helper.make_node('Neg', params.input_names, params.output_names),)

    neg = fake_as_funcnode(lambda x: -x.array, 'MyNeg', experimental_warning=False)

    class M(chainerlite.Chain):
        def forward(self, x):
            return neg(x)

    with pytest.warns(FutureWarning, match='external_converters is experimental'):
        proto = export(
            M(), np.ones(3, np.float32), external_converters={'MyNeg': converter}
        )
    assert [n.op_type for n in proto.graph.node] == ['Neg']


def test_unsupported_function_is_named():
    class Odd(chainerlite.FunctionNode):
        def forward(self, inputs):
            return (inputs[0] * 2,)

    class M(chainerlite.Chain):
        def forward(self, x):
            return Odd().apply((x,))[0]

    with pytest.raises(ValueError, match='Odd is not supported'):
        export(M(), np.ones(3, np.float32))


def test_bad_args_type():
    with pytest.raises(ValueError, match="'args' argument"):
        export(chainerlite.Sequential(F.relu), 3)
