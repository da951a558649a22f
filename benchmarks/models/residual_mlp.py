"""A deep residual MLP: blocks of ``x + linear2(relu(linear1(x)))`` (width
512, hidden 1024, 16 blocks) on random features, a linear head to 10
classes, softmax cross entropy; MomentumSGD (lr 0.01, momentum 0.9). It is
not one of :data:`models.MODELS` (the forget curves of
``benchmarks/forget/curves.py`` use it); its functions have their shapes."""

import numpy as np

from models import _common

SIZES = {
    'full': dict(width=512, hidden=1024, depth=16, classes=10),
    'tiny': dict(width=6, hidden=8, depth=3, classes=3),
}
LR, MOMENTUM = 0.01, 0.9


def arrays(dims, seed):
    """Weights (He-scaled normals, the second layer of each block scaled down
    by the depth so that the residual sum stays near unit scale) and zero
    biases."""
    rng = np.random.default_rng(seed)
    width, hidden = dims['width'], dims['hidden']
    out = {}
    for i in range(dims['depth']):
        out[f'/blocks/{i}/l1/W'] = _common.normal(rng, (hidden, width), width)
        out[f'/blocks/{i}/l1/b'] = np.zeros(hidden, np.float32)
        second = _common.normal(rng, (width, hidden), hidden) / dims['depth']
        out[f'/blocks/{i}/l2/W'] = second.astype(np.float32)
        out[f'/blocks/{i}/l2/b'] = np.zeros(width, np.float32)
    out['/head/W'] = _common.normal(rng, (dims['classes'], width), width)
    out['/head/b'] = np.zeros(dims['classes'], np.float32)
    return out


def data(dims, batch, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, dims['width'])).astype(np.float32)
    return x, rng.integers(0, dims['classes'], batch)


def chainer_step(chainer, dims, arrays, data):
    L, F = chainer.links, chainer.functions

    class Block(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = L.Linear(dims['width'], dims['hidden'])
                self.l2 = L.Linear(dims['hidden'], dims['width'])

        def forward(self, x):
            return x + self.l2(F.relu(self.l1(x)))

    class ResidualMLP(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.blocks = chainer.ChainList(
                    *[Block() for _ in range(dims['depth'])]
                )
                self.head = L.Linear(dims['width'], dims['classes'])

        def forward(self, x):
            for block in self.blocks:
                x = block(x)
            return self.head(x)

    model = ResidualMLP()
    _common.load_chainer(model, arrays)
    x, t = data[0], data[1].astype(np.int32)
    optimizer = chainer.optimizers.MomentumSGD(lr=LR, momentum=MOMENTUM)
    return _common.chainer_step(
        model, optimizer, lambda: F.softmax_cross_entropy(model(x), t)
    )


def torch_step(dims, arrays, data):
    import torch
    from torch import nn

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.l1 = nn.Linear(dims['width'], dims['hidden'])
            self.l2 = nn.Linear(dims['hidden'], dims['width'])

        def forward(self, x):
            return x + self.l2(torch.relu(self.l1(x)))

    class ResidualMLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.Sequential(*[Block() for _ in range(dims['depth'])])
            self.head = nn.Linear(dims['width'], dims['classes'])

        def forward(self, x):
            return self.head(self.blocks(x))

    model = ResidualMLP()
    pairs = [('/head/W', model.head.weight), ('/head/b', model.head.bias)]
    for i, block in enumerate(model.blocks):
        for name in ('l1', 'l2'):
            layer = getattr(block, name)
            pairs += [(f'/blocks/{i}/{name}/W', layer.weight)]
            pairs += [(f'/blocks/{i}/{name}/b', layer.bias)]
    _common.load_torch(torch, pairs, arrays)
    x, t = torch.from_numpy(data[0]), torch.from_numpy(data[1])
    optimizer = torch.optim.SGD(model.parameters(), lr=LR, momentum=MOMENTUM)
    loss = nn.functional.cross_entropy
    return _common.torch_step(model, optimizer, lambda: loss(model(x), t))
