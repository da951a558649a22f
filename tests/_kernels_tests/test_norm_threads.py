"""The normalization kernels give the same bits with one OpenMP thread and
with two (``chainerlite._kernels.norm`` shares rows and channels among the
threads, and sums the parameter gradients in fixed blocks of rows): each
thread count runs in its own interpreter, on arrays large enough to be
shared (PARALLEL_MIN_WORK), and writes its results; they must be equal."""

import os

import pytest

PROGRAM = r'''
import sys
import numpy as np
from chainerlite._kernels import norm

rng = np.random.default_rng(5)
out = {}
for dtype in (np.float32, np.float64):
    tag = np.dtype(dtype).name
    x = rng.standard_normal((1030, 300)).astype(dtype)
    gy = rng.standard_normal(x.shape).astype(dtype)
    for log in (False, True):
        y = norm.softmax(x, 1, log)
        out[f'softmax{log}_{tag}'] = y
        out[f'softmax_grad{log}_{tag}'] = norm.softmax_grad(y, gy, 1, log)
    g, b = (rng.standard_normal(300).astype(dtype) for _ in range(2))
    out[f'layer_{tag}'] = norm.layer_norm(x, g, b, 1e-5)
    for i, a in enumerate(norm.layer_norm_grad(x, g, gy, 1e-5)):
        out[f'layer_grad{i}_{tag}'] = a
    x4 = rng.standard_normal((64, 8, 16, 16)).astype(dtype)
    gy4 = rng.standard_normal(x4.shape).astype(dtype)
    g8, b8 = (rng.standard_normal(8).astype(dtype) for _ in range(2))
    out[f'group_{tag}'] = norm.group_norm(x4, g8, b8, 4, 1e-5)
    for i, a in enumerate(norm.group_norm_grad(x4, g8, gy4, 4, 1e-5)):
        out[f'group_grad{i}_{tag}'] = a
    y4, mean, var = norm.batch_norm(x4, g8, b8, 2e-5)
    out.update({f'batch_{tag}': y4, f'mean_{tag}': mean, f'var_{tag}': var})
    for i, a in enumerate(norm.batch_norm_grad(x4, g8, gy4, mean, var, 2e-5)):
        out[f'batch_grad{i}_{tag}'] = a
    out[f'fixed_{tag}'] = norm.batch_norm_fixed(x4, g8, b8, mean, var, 2e-5)
    for i, a in enumerate(norm.batch_norm_fixed_grad(x4, gy4, mean, g8)):
        out[f'fixed_grad{i}_{tag}'] = a
np.savez(sys.argv[1], **out)
'''


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason='one CPU: no second thread')
def test_one_and_two_threads_give_the_same_bits(thread_results):
    one, two = thread_results(PROGRAM, 1), thread_results(PROGRAM, 2)
    assert sorted(one) == sorted(two) and len(one) == 2 * 22
    for name in one:
        assert one[name].tobytes() == two[name].tobytes(), name
