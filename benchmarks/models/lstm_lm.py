"""2-layer LSTM language model (the medium PTB model's shapes: vocabulary
10k, 650 units, 35 steps): EmbedID, NStepLSTM on the batch's sequences,
a Linear to the vocabulary on every step, softmax cross entropy; SGD
(lr 1.0). No dropout (Chainer's NStepLSTM drops out the input of every
layer, PyTorch's LSTM only between layers; without it the two compute the
same step)."""

import numpy as np

from models import _common

SIZES = {
    'full': dict(vocab=10000, units=650, steps=35, layers=2),
    'tiny': dict(vocab=11, units=6, steps=4, layers=2),
}
LR = 1.0


def arrays(dims, seed):
    """Embedding N(0, 1); LSTM weights and biases uniform in +-1/sqrt(units)
    (PyTorch's default); the output layer He-scaled with a zero bias.
    NStepLSTM's ``w0..w7`` are the input then the recurrent weights of the
    gates i, f, g, o, PyTorch's order."""
    rng = np.random.default_rng(seed)
    vocab, units = dims['vocab'], dims['units']
    bound = units**-0.5
    out = {'/embed/W': rng.standard_normal((vocab, units)).astype(np.float32)}
    for layer in range(dims['layers']):
        for g in range(8):
            w = rng.uniform(-bound, bound, (units, units))
            out[f'/rnn/{layer}/w{g}'] = w.astype(np.float32)
            b = rng.uniform(-bound, bound, units)
            out[f'/rnn/{layer}/b{g}'] = b.astype(np.float32)
    out['/out/W'] = _common.normal(rng, (vocab, units), units)
    out['/out/b'] = np.zeros(vocab, np.float32)
    return out


def data(dims, batch, seed):
    """Token ids (batch, steps + 1): the inputs and, shifted, the targets."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, dims['vocab'], (batch, dims['steps'] + 1))


def chainer_step(chainer, dims, arrays, data):
    L, F = chainer.links, chainer.functions
    units = dims['units']

    class LanguageModel(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.embed = L.EmbedID(dims['vocab'], units)
                self.rnn = L.NStepLSTM(dims['layers'], units, units, 0.0)
                self.out = L.Linear(units, dims['vocab'])

        def forward(self, xs, ts):
            exs = F.split_axis(self.embed(F.concat(xs, axis=0)), len(xs), 0)
            _, _, ys = self.rnn(None, None, exs)
            return F.softmax_cross_entropy(
                self.out(F.concat(ys, axis=0)), F.concat(ts, axis=0)
            )

    model = LanguageModel()
    _common.load_chainer(model, arrays)
    tokens = data.astype(np.int32)
    xs, ts = list(tokens[:, :-1]), list(tokens[:, 1:])
    optimizer = chainer.optimizers.SGD(lr=LR)
    return _common.chainer_step(model, optimizer, lambda: model(xs, ts))


def torch_step(dims, arrays, data):
    import torch
    from torch import nn

    units = dims['units']

    class LanguageModel(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(dims['vocab'], units)
            self.rnn = nn.LSTM(units, units, dims['layers'], batch_first=True)
            self.out = nn.Linear(units, dims['vocab'])

        def forward(self, x, t):
            ys, _ = self.rnn(self.embed(x))
            return nn.functional.cross_entropy(
                self.out(ys.reshape(-1, units)), t.reshape(-1)
            )

    model = LanguageModel()
    joined = torch_arrays(arrays, dims['layers'])
    pairs = [(name, model.get_parameter(name)) for name in joined]
    _common.load_torch(torch, pairs, joined)
    tokens = torch.as_tensor(data)
    x, t = tokens[:, :-1].contiguous(), tokens[:, 1:].contiguous()
    optimizer = torch.optim.SGD(model.parameters(), lr=LR)
    return _common.torch_step(model, optimizer, lambda: model(x, t))


def torch_arrays(arrays, layers):
    """``arrays`` under PyTorch's parameter names: each layer's eight gate
    matrices and biases stacked as ``weight_ih``, ``weight_hh``, ``bias_ih``
    and ``bias_hh``."""
    out = {
        'embed.weight': arrays['/embed/W'],
        'out.weight': arrays['/out/W'],
        'out.bias': arrays['/out/b'],
    }
    for layer in range(layers):
        for kind, gates in (('ih', range(4)), ('hh', range(4, 8))):
            for name, ours in (('weight', 'w'), ('bias', 'b')):
                out[f'rnn.{name}_{kind}_l{layer}'] = np.concatenate(
                    [arrays[f'/rnn/{layer}/{ours}{g}'] for g in gates]
                )
    return out
