"""A user's training script, type-checked by ``make typecheck``.

It is written as a Chainer user writes one (``import chainerlite as
chainer``); each ``assert_type`` states what mypy, and so an editor, infers
from the annotations of the package. test_examples.py also runs it.
"""

from __future__ import annotations

import numpy as np
from typing_extensions import assert_type

import chainerlite as chainer
import chainerlite.functions as F
import chainerlite.links as L
from chainerlite import training
from chainerlite.training import extensions


class MLP(chainer.Chain):
    def __init__(self, n_units: int, n_out: int) -> None:
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, n_units)
            self.l2 = L.Linear(n_units, n_out, initialW=chainer.initializers.HeNormal())

    def forward(self, x: chainer.Variable | np.ndarray) -> chainer.Variable:
        h = F.relu(self.l1(x))
        assert_type(h, chainer.Variable)
        return self.l2(F.dropout(h, 0.1))


def main(out: str) -> chainer.Variable:
    rng = np.random.RandomState(0)
    x = rng.rand(24, 4).astype(np.float32)
    t = (x.sum(axis=1) > 2).astype(np.int32)
    dataset = chainer.datasets.TupleDataset(x, t)

    model = L.Classifier(MLP(8, 2), lossfun=F.softmax_cross_entropy)
    optimizer = chainer.optimizers.Adam(alpha=0.01)
    assert_type(optimizer.setup(model), chainer.optimizers.Adam)
    optimizer.add_hook(chainer.optimizer_hooks.WeightDecay(1e-4))

    train_iter = chainer.iterators.SerialIterator(dataset, batch_size=8)
    updater = training.updaters.StandardUpdater(train_iter, optimizer, device='@numpy')
    trainer = training.Trainer(updater, (2, 'epoch'), out=out)
    trainer.extend(extensions.LogReport(), trigger=(1, 'epoch'))
    trainer.run()

    predictor = model.predictor
    assert isinstance(predictor, MLP)
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        # A user's Chain returns what its forward returns; mypy sees Any
        # there, and the type again after an F.* call.
        y = F.argmax(predictor(x), axis=1)
    assert_type(y, chainer.Variable)
    loss = F.softmax_cross_entropy(predictor(x), t)
    assert_type(loss, chainer.Variable)
    chainer.reporter.report({'loss': loss})
    chainer.serializers.save_npz(out + '/model.npz', model)
    chainer.serializers.load_npz(out + '/model.npz', model)
    return y
