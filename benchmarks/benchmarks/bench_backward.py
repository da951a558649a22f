"""Backward time per node must not grow with the depth of the graph."""

import numpy as np

import chainerlite
import chainerlite.functions as F


class DeepChainBackward:
    params = ([1000, 100000, 1000000],)
    param_names = ['depth']
    timeout = 300
    number = 1
    repeat = 3

    def setup(self, depth):
        self.x = chainerlite.Variable(np.ones((1,), np.float32))
        h = self.x
        for _ in range(depth):
            h = h * 1.0
        self.loss = F.sum(h)

    def time_backward(self, depth):
        self.loss.backward()

    def track_ns_per_node(self, depth):
        import time

        start = time.perf_counter()
        self.loss.backward()
        return (time.perf_counter() - start) / depth * 1e9

    track_ns_per_node.unit = 'ns'
