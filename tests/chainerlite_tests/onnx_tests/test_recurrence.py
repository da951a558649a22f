"""The n-step RNN links export their Recurrence nodes (one per layer and
direction) step by step as ONNX operators, variable lengths included."""

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
import chainerlite.links as L


class _Model(chainerlite.Chain):
    def __init__(self, rnn, n_states):
        super().__init__()
        self.n_states = n_states
        with self.init_scope():
            self.rnn = rnn

    def forward(self, *xs):
        out = self.rnn(*([None] * self.n_states), list(xs))
        return tuple(out[:-1]) + tuple(out[-1])


@pytest.mark.parametrize(
    'make, n_states',
    [
        (lambda: L.NStepLSTM(2, 3, 4, 0.0), 2),
        (lambda: L.NStepBiLSTM(2, 3, 4, 0.0), 2),
        (lambda: L.NStepBiGRU(1, 3, 4, 0.0), 1),
        (lambda: L.NStepRNNTanh(2, 3, 4, 0.0), 1),
        (lambda: L.NStepBiRNNReLU(2, 3, 4, 0.0), 1),
    ],
)
@pytest.mark.parametrize('opset', [9, 11])
@pytest.mark.parametrize('lengths', [(2, 5, 3), (4,)])
def test_n_step_links_export(make, n_states, opset, lengths, onnx_matches):
    rng = np.random.RandomState(0)
    xs = tuple(rng.randn(n, 3).astype(np.float32) for n in lengths)
    proto = onnx_matches(_Model(make(), n_states), xs, opset)
    # the recurrent products, h W^T (+ b), as Chainer's linear exports them
    assert any(
        n.op_type == 'Gemm' and n.attribute[0].name == 'transB'
        for n in proto.graph.node
    )
    assert not any(n.op_type in ('Transpose', 'MatMul') for n in proto.graph.node)


@pytest.mark.parametrize('name, n_weights', [('n_step_rnn', 2), ('n_step_lstm', 8)])
@pytest.mark.parametrize('opset', [9, 11])
def test_float64_weights_given_as_inputs(name, n_weights, opset, onnx_matches):
    # ONNX Runtime 1.15 (make onnx-probe's) fuses the Transpose of a weight
    # that is a graph input into the MatMul after it as FusedMatMul, which
    # it has no float64 kernel for: the recurrent weight is transposed by
    # Gemm instead (test_n_step_links_export checks the nodes)
    rng = np.random.RandomState(1)
    n_h = 2 if name == 'n_step_lstm' else 1
    hs = [rng.randn(1, 2, 2) for _ in range(n_h)]
    ws = [rng.randn(2, 2) for _ in range(n_weights)]
    bs = [rng.randn(2) for _ in range(n_weights)]
    xs = [rng.randn(2, 2), rng.randn(2, 2)]

    def call(*args):
        w = [list(args[n_h : n_h + n_weights])]
        b = [list(args[n_h + n_weights : n_h + 2 * n_weights])]
        out = getattr(F, name)(1, 0.0, *args[:n_h], w, b, list(args[-2:]))
        return tuple(out[:-1]) + tuple(out[-1])

    args = tuple(hs + ws + bs + xs)
    onnx_matches(chainerlite.Sequential(call), args, opset, rtol=1e-10, atol=1e-10)
