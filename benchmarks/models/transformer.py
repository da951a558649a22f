"""4 post-LN Transformer encoder blocks (PyTorch's ``TransformerEncoderLayer``
with ``batch_first=True``: self-attention of 4 heads, ReLU feed-forward,
dropout 0.1 on the attention weights, inside the feed-forward and on both
residual branches, LayerNorm eps 1e-5 after each residual sum) on random
inputs of d 256 and length 128; a linear head to 10 classes per token,
softmax cross entropy; Adam (alpha 1e-3)."""

import numpy as np

from models import _common

SIZES = {
    'full': dict(d=256, heads=4, ffn=1024, seq=128, depth=4, classes=10, dropout=0.1),
    'tiny': dict(d=8, heads=2, ffn=16, seq=5, depth=2, classes=3, dropout=0.1),
}
EPS, ALPHA = 1e-5, 1e-3
# chainerlite link name -> PyTorch submodule, per block
LINEARS = {
    'qkv': 'self_attn.in_proj_',
    'out': 'self_attn.out_proj.',
    'ff1': 'linear1.',
    'ff2': 'linear2.',
}
NORMS = {'ln1': 'norm1.', 'ln2': 'norm2.'}


def arrays(dims, seed):
    """Weights (He-scaled normals) and zero biases of the linear layers; the
    LayerNorm parameters (gamma 1, beta 0) as well."""
    rng = np.random.default_rng(seed)
    d, ffn = dims['d'], dims['ffn']
    shapes = {'qkv': (3 * d, d), 'out': (d, d), 'ff1': (ffn, d), 'ff2': (d, ffn)}
    out = {}
    for i in range(dims['depth']):
        for name, shape in shapes.items():
            out[f'/blocks/{i}/{name}/W'] = _common.normal(rng, shape, shape[1])
            out[f'/blocks/{i}/{name}/b'] = np.zeros(shape[0], np.float32)
        for name in NORMS:
            out[f'/blocks/{i}/{name}/gamma'] = np.ones(d, np.float32)
            out[f'/blocks/{i}/{name}/beta'] = np.zeros(d, np.float32)
    out['/head/W'] = _common.normal(rng, (dims['classes'], d), d)
    out['/head/b'] = np.zeros(dims['classes'], np.float32)
    return out


def data(dims, batch, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, dims['seq'], dims['d'])).astype(np.float32)
    return x, rng.integers(0, dims['classes'], (batch, dims['seq']))


def chainer_step(chainer, dims, arrays, data):
    L, F = chainer.links, chainer.functions
    d, heads, ratio = dims['d'], dims['heads'], dims['dropout']

    class EncoderBlock(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.qkv = L.Linear(d, 3 * d)
                self.out = L.Linear(d, d)
                self.ln1 = L.LayerNormalization(d, eps=EPS)
                self.ff1 = L.Linear(d, dims['ffn'])
                self.ff2 = L.Linear(dims['ffn'], d)
                self.ln2 = L.LayerNormalization(d, eps=EPS)

        def attention(self, x, batch, seq):
            qkv = self.qkv(x).reshape(batch, seq, 3, heads, d // heads)
            q, k, v = F.separate(qkv.transpose(2, 0, 3, 1, 4), axis=0)
            scores = F.matmul(q, k, transb=True) * (1.0 / (d // heads) ** 0.5)
            weights = F.dropout(F.softmax(scores, axis=3), ratio)
            h = F.matmul(weights, v).transpose(0, 2, 1, 3)
            return self.out(h.reshape(batch * seq, d))

        def forward(self, x, batch, seq):  # x: (batch * seq, d)
            h = self.ln1(x + F.dropout(self.attention(x, batch, seq), ratio))
            f = self.ff2(F.dropout(F.relu(self.ff1(h)), ratio))
            return self.ln2(h + F.dropout(f, ratio))

    class Encoder(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.blocks = chainer.ChainList(
                    *[EncoderBlock() for _ in range(dims['depth'])]
                )
                self.head = L.Linear(d, dims['classes'])

        def forward(self, x):
            batch, seq = x.shape[:2]
            h = x.reshape(batch * seq, d)
            for block in self.blocks:
                h = block(h, batch, seq)
            return self.head(h)

    model = Encoder()
    _common.load_chainer(model, arrays)
    x, t = data[0], data[1].astype(np.int32).ravel()
    optimizer = chainer.optimizers.Adam(alpha=ALPHA)
    return _common.chainer_step(
        model, optimizer, lambda: F.softmax_cross_entropy(model(x), t)
    )


def torch_step(dims, arrays, data):
    import torch
    from torch import nn

    d = dims['d']
    layers = [
        nn.TransformerEncoderLayer(
            d,
            dims['heads'],
            dims['ffn'],
            dims['dropout'],
            batch_first=True,
            layer_norm_eps=EPS,
        )
        for _ in range(dims['depth'])
    ]
    model = nn.Sequential(*layers, nn.Linear(d, dims['classes']))
    params = dict(model.named_parameters())
    pairs = [('/head/W', params[f'{len(layers)}.weight'])]
    pairs.append(('/head/b', params[f'{len(layers)}.bias']))
    for i in range(len(layers)):
        for name, prefix in LINEARS.items():
            for ours, theirs in (('W', 'weight'), ('b', 'bias')):
                pairs.append(
                    (f'/blocks/{i}/{name}/{ours}', params[f'{i}.{prefix}{theirs}'])
                )
        for name, prefix in NORMS.items():
            for ours, theirs in (('gamma', 'weight'), ('beta', 'bias')):
                pairs.append(
                    (f'/blocks/{i}/{name}/{ours}', params[f'{i}.{prefix}{theirs}'])
                )
    _common.load_torch(torch, pairs, arrays)
    x, t = torch.as_tensor(data[0]), torch.as_tensor(data[1]).reshape(-1)
    optimizer = torch.optim.Adam(model.parameters(), lr=ALPHA)
    loss = nn.functional.cross_entropy
    return _common.torch_step(
        model, optimizer, lambda: loss(model(x).reshape(len(t), -1), t)
    )
