"""F.forget: time and peak memory of a deep tanh-linear stack."""

import numpy as np

import chainerlite
import chainerlite.functions as F

BLOCKS, LAYERS, BATCH, WIDTH = 12, 4, 2048, 128


def _tanh(x):
    return F.tanh(x) if hasattr(F, 'tanh') else F.relu(x)


class ForgetStack:
    params = ([False, True],)
    param_names = ['forget']
    timeout = 300

    def setup(self, forget):
        rng = np.random.RandomState(0)
        self.Ws = [
            chainerlite.Parameter(
                (rng.randn(WIDTH, WIDTH) / np.sqrt(WIDTH)).astype(np.float32)
            )
            for _ in range(BLOCKS * LAYERS)
        ]
        self.x = rng.randn(BATCH, WIDTH).astype(np.float32)

    def _run(self, forget):
        h = chainerlite.Variable(self.x)
        for i in range(BLOCKS):
            Ws = self.Ws[i * LAYERS : (i + 1) * LAYERS]

            def block(h, Ws=Ws):
                for W in Ws:
                    h = _tanh(F.linear(h, W))
                return h

            h = F.forget(block, h) if forget else block(h)
        F.sum(h).backward()

    def time_step(self, forget):
        self._run(forget)

    def peakmem_step(self, forget):
        self._run(forget)
