"""The optimizer updates and ReLU give the same bits with one OpenMP thread
and with two (``chainerlite._kernels.optim`` and ``relu`` share the
elements of a large array among the threads): each thread count runs in
its own interpreter, on arrays large enough to be shared, and writes its
results; they must be equal, and equal to NumPy's expressions."""

import os

import numpy as np
import pytest

PROGRAM = r'''
import sys
import numpy as np
from chainerlite._kernels import optim, relu

rng = np.random.default_rng(7)
n = 3 * (1 << 18) + 5  # shared by the threads; odd, so the parts are uneven
out = {}
for dtype in (np.float32, np.float64):
    tag = np.dtype(dtype).name
    p, g, m, v = (rng.standard_normal(n).astype(dtype) for _ in range(4))
    v = np.abs(v)
    assert optim.adam(p, g, m, v, 0.1, 0.001, 0.01, 1e-8, 1.0, 1e-4) is p
    out.update({f'adam_p_{tag}': p, f'adam_m_{tag}': m, f'adam_v_{tag}': v})
    p = rng.standard_normal(n).astype(dtype)
    assert optim.sgd(p, g, 0.01) is p
    out[f'sgd_{tag}'] = p
    p, v = (rng.standard_normal(n).astype(dtype) for _ in range(2))
    assert optim.momentum_sgd(p, g, v, 0.01, 0.9) is p
    out.update({f'momentum_p_{tag}': p, f'momentum_v_{tag}': v})
    x = rng.standard_normal((n, 2)).astype(dtype)
    x[::7] = np.nan
    y = relu.relu(x)
    out[f'relu_{tag}'] = y
    gy = rng.standard_normal(x.shape).astype(dtype)
    out[f'relu_grad_{tag}'] = relu.relu_grad(y, gy)
    out[f'relu_f_{tag}'] = relu.relu(np.asfortranarray(x))
np.savez(sys.argv[1], **out)
'''


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason='one CPU: no second thread')
def test_one_and_two_threads_give_the_same_bits(thread_results):
    one, two = thread_results(PROGRAM, 1), thread_results(PROGRAM, 2)
    assert sorted(one) == sorted(two) and len(one) == 2 * 9
    for name in one:
        assert one[name].tobytes() == two[name].tobytes(), name


def test_shared_arrays_give_numpys_bits(thread_results):
    # the same program's inputs, drawn again, through NumPy's expressions
    out = thread_results(PROGRAM, 2)
    rng = np.random.default_rng(7)
    n = 3 * (1 << 18) + 5
    for dtype in (np.float32, np.float64):
        tag = np.dtype(dtype).name
        p, g, m, v = (rng.standard_normal(n).astype(dtype) for _ in range(4))
        v = np.abs(v)
        m += dtype(0.1) * (g - m)
        v += dtype(0.001) * (g * g - v)
        step = dtype(0.01) / (np.sqrt(v) + dtype(1e-8))
        p = dtype(1.0 - 1e-4) * p + dtype(-1.0) * (step * m)
        for name, want in (('p', p), ('m', m), ('v', v)):
            assert out[f'adam_{name}_{tag}'].tobytes() == want.tobytes(), (name, tag)
        p = rng.standard_normal(n).astype(dtype)
        p -= dtype(0.01) * g
        assert out[f'sgd_{tag}'].tobytes() == p.tobytes(), tag
        p, v = (rng.standard_normal(n).astype(dtype) for _ in range(2))
        v *= dtype(0.9)
        v -= dtype(0.01) * g
        p += v
        assert out[f'momentum_p_{tag}'].tobytes() == p.tobytes(), tag
        assert out[f'momentum_v_{tag}'].tobytes() == v.tobytes(), tag
        x = rng.standard_normal((n, 2)).astype(dtype)
        x[::7] = np.nan
        y = np.maximum(x, 0)
        np.testing.assert_array_equal(out[f'relu_{tag}'], y)
        gy = rng.standard_normal(x.shape).astype(dtype)
        np.testing.assert_array_equal(out[f'relu_grad_{tag}'], gy * (y > 0))
        np.testing.assert_array_equal(out[f'relu_f_{tag}'], y)
