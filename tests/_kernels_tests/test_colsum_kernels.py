"""The threads' sum over the first axis of a large 2-d array
(``chainerlite._kernels.colsum``, behind the linear bias gradient and
F.sum(x, axis=0)): NumPy's bits with two threads, NumPy's order written out
(the rows added one after another), and NumPy's own computation (its
warnings included) wherever it declines. Each thread count runs in its own
interpreter (OpenMP reads it when it starts)."""

import os

import numpy as np
import pytest

from chainerlite._kernels import colsum

SHAPES = ((2048, 256), (1 << 18, 2), (3, 100003), (1, 1 << 18))

PROGRAM = r'''
import sys
import warnings
import numpy as np
import chainerlite as chainer
import chainerlite.functions as F
from chainerlite._kernels import colsum

rng = np.random.default_rng(11)
out = {}
for dtype in (np.float32, np.float64):
    tag = np.dtype(dtype).name
    for n, m in %r:
        # magnitudes over six decades, so that the order of the sums shows
        x = (rng.standard_normal((n, m))
             * 10.0 ** rng.integers(-3, 4, (n, m))).astype(dtype)
        x[0, :2] = -0.0
        x[: n // 2, -1] = np.nan
        key = f'{n}x{m}_{tag}'
        out['x_' + key] = x
        y = colsum.column_sum(x)
        out['sum_' + key] = np.zeros(0) if y is None else y
        out['var_' + key] = F.sum(chainer.Variable(x), axis=0).array
    # the bias gradient of F.linear
    x = rng.standard_normal((2048, 64)).astype(dtype)
    W = rng.standard_normal((300, 64)).astype(dtype)
    b = chainer.Variable(np.zeros(300, dtype))
    gy = rng.standard_normal((2048, 300)).astype(dtype)
    y = F.linear(x, W, b)
    y.grad = gy
    y.backward()
    out[f'gy_{tag}'], out[f'gb_{tag}'] = gy, b.grad
    big = np.full((1 << 17, 4), np.finfo(dtype).max, dtype)
    out[f'overflow_{tag}'] = np.array([colsum.column_sum(big) is None])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        y = F.sum(chainer.Variable(big), axis=0)
    out[f'warned_{tag}'] = np.array(
        [any('overflow' in str(w.message) for w in caught)])
    out[f'inf_{tag}'] = y.array
np.savez(sys.argv[1], **out)
''' % (SHAPES,)


def _rows_in_order(x):
    # NumPy's order for x.sum(0) with two columns or more: zero, then each
    # row in turn
    acc = np.zeros_like(x[0])
    for row in x:
        acc += row
    return acc


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason='one CPU: no second thread')
def test_two_threads_give_numpys_bits(thread_results):
    out = thread_results(PROGRAM, 2)
    for tag in ('float32', 'float64'):
        for n, m in SHAPES:
            key = f'{n}x{m}_{tag}'
            x = out['x_' + key]
            want = x.sum(0)
            assert out['sum_' + key].dtype == want.dtype, key
            assert out['sum_' + key].tobytes() == want.tobytes(), key
            assert out['var_' + key].tobytes() == want.tobytes(), key
            if n < 5000:
                assert _rows_in_order(x).tobytes() == want.tobytes(), key
        gy = out[f'gy_{tag}']
        assert out[f'gb_{tag}'].tobytes() == gy.sum(0).tobytes(), tag
        # an overflow: the kernel declines, NumPy computes and warns
        assert out[f'overflow_{tag}'].all() and out[f'warned_{tag}'].all(), tag
        assert np.isposinf(out[f'inf_{tag}']).all(), tag


def test_one_thread_declines(thread_results):
    out = thread_results(PROGRAM, 1)
    for tag in ('float32', 'float64'):
        for n, m in SHAPES:
            key = f'{n}x{m}_{tag}'
            assert out['sum_' + key].size == 0, key
            assert out['var_' + key].tobytes() == out['x_' + key].sum(0).tobytes()


N = 1 << 18


@pytest.mark.parametrize(
    'x',
    [
        np.ones((N // 256 - 1, 256), np.float32),  # small
        np.ones((N, 1), np.float32),  # one column: NumPy sums pairwise
        np.ones((64, 64, 64), np.float32),  # not 2-d
        np.ones((N // 256, 256), np.float16),
        np.ones((N // 256, 256), np.int32),
        np.ones((N // 256, 512), np.float32)[:, ::2],  # not contiguous
        np.asfortranarray(np.ones((512, 512), np.float32)),
        np.ones((N // 256, 256), np.float32).view(np.matrix),
        np.ones((N // 256, 256), np.float32).tolist(),
        np.frombuffer(b'\0' + bytes(4 * N), np.float32, N, 1).reshape(-1, 256),
    ],
)
def test_declines(x):
    assert colsum.column_sum(x) is None
