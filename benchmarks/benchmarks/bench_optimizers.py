"""One optimizer update of an MLP's parameters (784-1000-1000-10 float32,
1.8M elements) with fixed gradients: the part of a training step that is
neither forward nor backward. Adam's CPU update is one compiled pass
(``_core/optim_kernels``); the NumPy expressions it replaces took about
four times as long."""

import numpy as np

import chainerlite
import chainerlite.links as L
from chainerlite import optimizers


class OptimizerUpdate:
    params = ['Adam', 'AdamW', 'MomentumSGD', 'SGD']
    param_names = ['optimizer']

    def setup(self, name):
        self.model = chainerlite.Sequential(
            L.Linear(784, 1000), L.Linear(1000, 1000), L.Linear(1000, 10)
        )
        rng = np.random.RandomState(0)
        for param in self.model.params():
            param.grad = rng.randn(*param.shape).astype(np.float32)
        if name == 'AdamW':
            self.optimizer = optimizers.AdamW(weight_decay_rate=0.01)
        else:
            self.optimizer = getattr(optimizers, name)()
        self.optimizer.setup(self.model)
        self.optimizer.update()  # the states exist before timing

    def time_update(self, name):
        self.optimizer.update()
