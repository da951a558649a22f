"""Real-model steps, where the array math of the compiled CPU kernels
(convolution, pooling, LSTM cell) dominates the graph bookkeeping.

The same programs run side by side with PyTorch in ``benchmarks/compare.py``
(groups ``cnn`` and ``lstm``).
"""

import numpy as np

import chainerlite
import chainerlite.functions as F


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
