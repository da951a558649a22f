"""n_step_gru (and the NStepGRU link) as ONNX GRU layers."""

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
import chainerlite.links as L


def _gru_model(n_layers, batches, in_size=4, hidden=5):
    rng = np.random.RandomState(n_layers)
    ws = [
        [
            rng.randn(hidden, in_size if i < 3 and layer == 0 else hidden)
            for i in range(6)
        ]
        for layer in range(n_layers)
    ]
    bs = [[rng.randn(hidden) for _ in range(6)] for _ in range(n_layers)]
    ws = [[chainerlite.Variable(w.astype(np.float32)) for w in layer] for layer in ws]
    bs = [[b.astype(np.float32) for b in layer] for layer in bs]  # plain arrays

    def forward(hx, *xs):
        hy, ys = F.n_step_gru(n_layers, 0.5, hx, ws, bs, list(xs))
        return (hy,) + tuple(ys)

    hx = rng.randn(n_layers, batches[0], hidden).astype(np.float32)
    xs = tuple(rng.randn(b, in_size).astype(np.float32) for b in batches)
    return chainerlite.Sequential(forward), (hx,) + xs


@pytest.mark.parametrize('opset', [7, 10, 11])
@pytest.mark.parametrize('n_layers', [1, 2])
@pytest.mark.parametrize('batches', [(3, 3, 3), (3, 2, 2, 1), (2,)])
def test_n_step_gru(onnx_matches, n_layers, batches, opset):
    model, args = _gru_model(n_layers, batches)
    proto = onnx_matches(model, args, opset)
    assert sum(n.op_type == 'GRU' for n in proto.graph.node) == n_layers


def test_n_step_gru_link_sequences_of_several_lengths(onnx_matches):
    rng = np.random.RandomState(0)
    link = L.NStepGRU(2, 3, 4, 0.0)

    class Model(chainerlite.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.gru = link

        def forward(self, *xs):
            hy, ys = self.gru(None, list(xs))
            return (hy,) + tuple(ys)

    xs = tuple(rng.randn(n, 3).astype(np.float32) for n in (2, 5, 3))
    onnx_matches(Model(), xs, 11)
