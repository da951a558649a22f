"""Programs shared by the benchmark modules."""

import numpy as np

import chainerlite
import chainerlite.functions as F


def chain(x, n_ops):
    """``h = h * 1.0001`` n_ops times from ``x``; returns the last variable."""
    h = chainerlite.Variable(x)
    for _ in range(n_ops):
        h = h * 1.0001
    return h


def chain_backward(x, n_ops):
    F.sum(chain(x, n_ops)).backward()


def mlp_params(width, depth, seed=0):
    rng = np.random.RandomState(seed)
    return [
        (
            chainerlite.Parameter(rng.randn(width, width).astype(np.float32)),
            chainerlite.Parameter(np.zeros(width, np.float32)),
        )
        for _ in range(depth)
    ]


def mlp_step(x, params):
    h = chainerlite.Variable(x)
    for W, b in params:
        h = F.relu(F.linear(h, W, b))
    for W, b in params:
        W.cleargrad()
        b.cleargrad()
    F.sum(h).backward()
