"""Per-op cost of a chain of element-wise ops, forward and forward+backward."""

import numpy as np

from benchmarks import common


class Chain:
    params = ([10, 100, 1000], ['10x10', '1000x1000'])
    param_names = ['n_ops', 'shape']

    def setup(self, n_ops, shape):
        side = int(shape.split('x')[0])
        self.x = np.ones((side, side), np.float32)

    def time_forward(self, n_ops, shape):
        common.chain(self.x, n_ops)

    def time_forward_backward(self, n_ops, shape):
        common.chain_backward(self.x, n_ops)


class RawNumPyChain:
    """The same ufuncs without the engine, as the reference."""

    params = ([10, 100, 1000], ['10x10', '1000x1000'])
    param_names = ['n_ops', 'shape']

    def setup(self, n_ops, shape):
        side = int(shape.split('x')[0])
        self.x = np.ones((side, side), np.float32)

    def time_forward_backward(self, n_ops, shape):
        h = self.x
        for _ in range(n_ops):
            h = h * 1.0001
        h.sum()
        g = np.ones_like(h)
        for _ in range(n_ops):
            g = g * 1.0001


class TinyMLP:
    """Batch 1, width 16, depth 8: relu(linear) layers, sum, backward."""

    def setup(self):
        self.params = common.mlp_params(16, 8)
        self.x = np.random.RandomState(1).randn(1, 16).astype(np.float32)

    def time_step(self):
        common.mlp_step(self.x, self.params)


class LargeMLP:
    """One 1024x1024 layer step: the engine should add nothing measurable."""

    def setup(self):
        self.params = common.mlp_params(1024, 1)
        self.x = np.random.RandomState(1).randn(1024, 1024).astype(np.float32)

    def time_step(self):
        common.mlp_step(self.x, self.params)
