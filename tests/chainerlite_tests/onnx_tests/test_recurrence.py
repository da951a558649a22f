"""The n-step RNN links export their Recurrence nodes (one per layer and
direction) step by step as ONNX operators, variable lengths included."""

import numpy as np
import pytest

import chainerlite
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
    assert any(n.op_type == 'MatMul' for n in proto.graph.node)
