"""Real-model steps, where the array math of the compiled CPU kernels
(convolution, pooling, LSTM cell) dominates the graph bookkeeping.

The same programs run side by side with PyTorch in ``benchmarks/compare.py``
(groups ``cnn`` and ``lstm``; the ResNet-18, Transformer and LSTM language
model steps in its ``--models`` section).
"""

import json
import pathlib
import subprocess
import sys

import numpy as np

import chainerlite
import chainerlite.functions as F

# benchmarks/ holds the ``models`` package beside this suite
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import models  # noqa: E402

MEASURE = pathlib.Path(models.__file__).resolve().parent / 'measure.py'


class CNNStep:
    """conv 3x3 16->16 with bias on 32x16x8x8, relu, 2x2 max pooling,
    linear to 10, softmax cross entropy, backward."""

    def setup(self):
        rng = np.random.RandomState(0)
        self.x = rng.randn(32, 16, 8, 8).astype(np.float32)
        self.t = rng.randint(0, 10, 32).astype(np.int32)
        self.params = [
            chainerlite.Parameter(a.astype(np.float32))
            for a in (
                rng.randn(16, 16, 3, 3) * 0.1,
                np.zeros(16),
                rng.randn(10, 256) * 0.05,
                np.zeros(10),
            )
        ]

    def time_step(self):
        W, b, W2, b2 = self.params
        for p in self.params:
            p.cleargrad()
        h = F.max_pooling_2d(F.relu(F.convolution_2d(self.x, W, b, pad=1)), 2)
        F.softmax_cross_entropy(F.linear(h, W2, b2), self.t).backward()


class LSTMSteps:
    """20 steps of lstm(linear(x) + linear(h)), batch 16, 64 units, sum,
    backward."""

    def setup(self):
        rng = np.random.RandomState(0)
        self.xs = rng.randn(20, 16, 64).astype(np.float32)
        self.params = [
            chainerlite.Parameter(a.astype(np.float32))
            for a in (
                rng.randn(256, 64) * 0.125,
                rng.randn(256, 64) * 0.125,
                np.zeros(256),
            )
        ]

    def time_steps(self):
        Wx, Wh, b = self.params
        for p in self.params:
            p.cleargrad()
        c = h = np.zeros((16, 64), np.float32)
        for x in self.xs:
            c, h = F.lstm(c, F.linear(x, Wx, b) + F.linear(h, Wh))
        F.sum(h).backward()


class _ModelStep:
    """A training step of a model of benchmarks/models (chainerlite's side;
    ``compare.py --models`` runs PyTorch's beside it), at both its batch
    sizes; and the peak RSS of a step, measured in a fresh process."""

    model = None
    timeout = 900
    number = 1
    repeat = (1, 3, 60.0)
    warmup_time = 0

    def setup(self, batch):
        self.step = models.make_step('chainerlite', self.model, batch)
        self.step()  # lazy allocations and the optimizer's state

    def time_step(self, batch):
        self.step()

    def track_rss_peak(self, batch):
        done = subprocess.run(
            [
                sys.executable,
                str(MEASURE),
                'peak',
                'chainerlite',
                self.model,
                str(batch),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        return json.loads(done.stdout)['rss_peak'] / 2**20

    track_rss_peak.unit = 'MiB'


class ResNet18Step(_ModelStep):
    model = 'resnet18'
    params = models.BATCHES[model]
    param_names = ['batch']


class TransformerStep(_ModelStep):
    model = 'transformer'
    params = models.BATCHES[model]
    param_names = ['batch']


class LSTMLanguageModelStep(_ModelStep):
    model = 'lstm_lm'
    params = models.BATCHES[model]
    param_names = ['batch']
