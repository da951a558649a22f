"""ResNet-18 for CIFAR-sized images: a 3x3 stem, four stages of two basic
blocks (64, 128, 256, 512 channels; stride 2 and a 1x1 projection shortcut
entering stages 2-4), global average pooling, a linear classifier;
convolutions without bias, each followed by BatchNormalization
(eps 2e-5, decay 0.9); MomentumSGD (lr 0.1, momentum 0.9)."""

import numpy as np

from models import _common

SIZES = {
    'full': dict(widths=(64, 128, 256, 512), image=32, classes=10),
    'tiny': dict(widths=(4, 8, 8, 8), image=8, classes=3),
}
LR, MOMENTUM, EPS = 0.1, 0.9, 2e-5


def blocks(widths):
    """(path, in channels, out channels, stride) of each basic block."""
    found, cin = [], widths[0]
    for s, cout in enumerate(widths):
        for b in range(2):
            stride = 2 if s and not b else 1
            found.append((f'/stages/{s}/{b}', cin, cout, stride))
            cin = cout
    return found


def arrays(dims, seed):
    """The convolution filters and the classifier (He-scaled normals); the
    BatchNormalization parameters start at gamma 1, beta 0 in both."""
    rng = np.random.default_rng(seed)
    widths = dims['widths']
    out = {'/stem/W': _common.normal(rng, (widths[0], 3, 3, 3), 27)}
    for path, cin, cout, stride in blocks(widths):
        out[f'{path}/conv1/W'] = _common.normal(rng, (cout, cin, 3, 3), 9 * cin)
        out[f'{path}/conv2/W'] = _common.normal(rng, (cout, cout, 3, 3), 9 * cout)
        if stride != 1 or cin != cout:
            out[f'{path}/short/W'] = _common.normal(rng, (cout, cin, 1, 1), cin)
    out['/fc/W'] = _common.normal(rng, (dims['classes'], widths[-1]), widths[-1])
    out['/fc/b'] = np.zeros(dims['classes'], np.float32)
    return out


def data(dims, batch, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, 3, dims['image'], dims['image']))
    return x.astype(np.float32), rng.integers(0, dims['classes'], batch)


def with_norms(arrays, model_params):
    """``arrays`` plus gamma 1 / beta 0 for each BatchNormalization."""
    full = dict(arrays)
    for name, shape in model_params:
        if name not in full:
            init = np.ones if name.endswith('gamma') else np.zeros
            full[name] = init(shape, np.float32)
    return full


def chainer_step(chainer, dims, arrays, data):
    L, F = chainer.links, chainer.functions

    class Block(chainer.Chain):
        def __init__(self, cin, cout, stride):
            super().__init__()
            with self.init_scope():
                self.conv1 = L.Convolution2D(cin, cout, 3, stride, 1, nobias=True)
                self.bn1 = L.BatchNormalization(cout, eps=EPS)
                self.conv2 = L.Convolution2D(cout, cout, 3, 1, 1, nobias=True)
                self.bn2 = L.BatchNormalization(cout, eps=EPS)
                self.projects = stride != 1 or cin != cout
                if self.projects:
                    self.short = L.Convolution2D(cin, cout, 1, stride, 0, nobias=True)
                    self.bn_short = L.BatchNormalization(cout, eps=EPS)

        def forward(self, x):
            h = F.relu(self.bn1(self.conv1(x)))
            h = self.bn2(self.conv2(h))
            return F.relu(h + (self.bn_short(self.short(x)) if self.projects else x))

    class ResNet18(chainer.Chain):
        def __init__(self, widths, classes):
            super().__init__()
            with self.init_scope():
                self.stem = L.Convolution2D(3, widths[0], 3, 1, 1, nobias=True)
                self.bn = L.BatchNormalization(widths[0], eps=EPS)
                self.stages = chainer.ChainList(
                    *[
                        chainer.ChainList(
                            *[Block(*b[1:]) for b in blocks(widths)[2 * s : 2 * s + 2]]
                        )
                        for s in range(len(widths))
                    ]
                )
                self.fc = L.Linear(widths[-1], classes)

        def forward(self, x):
            h = F.relu(self.bn(self.stem(x)))
            for stage in self.stages:
                for block in stage:
                    h = block(h)
            return self.fc(F.average(h, axis=(2, 3)))

    model = ResNet18(dims['widths'], dims['classes'])
    shapes = [(n, p.shape) for n, p in model.namedparams()]
    _common.load_chainer(model, with_norms(arrays, shapes))
    x, t = data[0], data[1].astype(np.int32)
    optimizer = chainer.optimizers.MomentumSGD(lr=LR, momentum=MOMENTUM)
    return _common.chainer_step(
        model, optimizer, lambda: F.softmax_cross_entropy(model(x), t)
    )


def torch_step(dims, arrays, data):
    import torch
    from torch import nn

    class Block(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(cout, eps=EPS)
            self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(cout, eps=EPS)
            self.short = nn.Sequential()
            if stride != 1 or cin != cout:
                self.short = nn.Sequential(
                    nn.Conv2d(cin, cout, 1, stride, 0, bias=False),
                    nn.BatchNorm2d(cout, eps=EPS),
                )

        def forward(self, x):
            h = torch.relu(self.bn1(self.conv1(x)))
            return torch.relu(self.bn2(self.conv2(h)) + self.short(x))

    class ResNet18(nn.Module):
        def __init__(self, widths, classes):
            super().__init__()
            self.stem = nn.Conv2d(3, widths[0], 3, 1, 1, bias=False)
            self.bn = nn.BatchNorm2d(widths[0], eps=EPS)
            self.blocks = nn.Sequential(*[Block(*b[1:]) for b in blocks(widths)])
            self.fc = nn.Linear(widths[-1], classes)

        def forward(self, x):
            h = self.blocks(torch.relu(self.bn(self.stem(x))))
            return self.fc(h.mean((2, 3)))

    model = ResNet18(dims['widths'], dims['classes'])
    pairs = [('/stem/W', model.stem.weight), ('/fc/W', model.fc.weight)]
    pairs.append(('/fc/b', model.fc.bias))
    for (path, *_), block in zip(blocks(dims['widths']), model.blocks):
        pairs += [(f'{path}/conv1/W', block.conv1.weight)]
        pairs += [(f'{path}/conv2/W', block.conv2.weight)]
        if len(block.short):
            pairs += [(f'{path}/short/W', block.short[0].weight)]
    _common.load_torch(torch, pairs, arrays)
    x, t = torch.as_tensor(data[0]), torch.as_tensor(data[1])
    optimizer = torch.optim.SGD(model.parameters(), lr=LR, momentum=MOMENTUM)
    loss = nn.functional.cross_entropy
    return _common.torch_step(model, optimizer, lambda: loss(model(x), t))
