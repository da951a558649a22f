"""The threads' sum and product of large arrays and product with a
constant (``chainerlite._kernels.ewise``, behind the compiled Add, Mul and
MulConstant): NumPy's bits with two threads,
the same through Variables, and NumPy's own computation (its warnings
included) wherever they decline. Each thread count runs in its own
interpreter (OpenMP reads it when it starts)."""

import os

import numpy as np
import pytest

from chainerlite._kernels import ewise

PROGRAM = r'''
import sys
import warnings
import numpy as np
import chainerlite as chainer
from chainerlite._kernels import ewise

rng = np.random.default_rng(3)
n = 3 * (1 << 18) + 5
out = {}
for dtype in (np.float32, np.float64):
    tag = np.dtype(dtype).name
    a, b = (rng.standard_normal((n, 2)).astype(dtype) for _ in range(2))
    a[::5] = np.nan
    b[::7] = -0.0
    out[f'a_{tag}'], out[f'b_{tag}'] = a, b
    c = np.array(0.3, dtype)
    for name, y in (('add', ewise.add(a, b)), ('mul', ewise.mul(a, b)),
                    ('scale', ewise.scale(a, c))):
        out[f'{name}_{tag}'] = np.zeros(0) if y is None else y
    x, w = chainer.Variable(a), chainer.Variable(b)
    out[f'var_add_{tag}'] = (x + w).array
    out[f'var_mul_{tag}'] = (x * w).array
    out[f'var_scale_{tag}'] = (x * 0.3).array
    big = np.full(n, np.finfo(dtype).max, dtype)
    out[f'overflow_{tag}'] = np.array([ewise.add(big, big) is None,
                                       ewise.mul(big, big) is None,
                                       ewise.scale(big, np.array(2, dtype))
                                       is None])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        y = chainer.Variable(big) + chainer.Variable(big)
    out[f'warned_{tag}'] = np.array(
        [any('overflow' in str(w.message) for w in caught)])
    out[f'inf_{tag}'] = y.array
    tiny = np.full(n, np.finfo(dtype).tiny, dtype)
    out[f'underflow_{tag}'] = np.array([
        ewise.mul(tiny, tiny) is None,
        ewise.scale(tiny, np.array(0.3, dtype)) is None])
    raised = []
    for other in (chainer.Variable(tiny), 0.3):
        try:
            with np.errstate(under='raise'):
                chainer.Variable(tiny) * other
            raised.append(False)
        except FloatingPointError:
            raised.append(True)
    out[f'raised_{tag}'] = np.array(raised)
np.savez(sys.argv[1], **out)
'''


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason='one CPU: no second thread')
def test_two_threads_give_numpys_bits(thread_results):
    out = thread_results(PROGRAM, 2)
    for tag in ('float32', 'float64'):
        a, b = out[f'a_{tag}'], out[f'b_{tag}']
        c = np.array(0.3, a.dtype)
        for name, want in (('add', a + b), ('mul', a * b), ('scale', a * c)):
            assert out[f'{name}_{tag}'].shape == want.shape, (name, tag)
            assert out[f'{name}_{tag}'].tobytes() == want.tobytes(), (name, tag)
            assert out[f'var_{name}_{tag}'].tobytes() == want.tobytes(), (name, tag)
        # an overflow: the kernels decline, NumPy computes and warns
        assert out[f'overflow_{tag}'].all(), tag
        assert out[f'warned_{tag}'].all(), tag
        assert np.isposinf(out[f'inf_{tag}']).all(), tag
        # an underflow likewise: NumPy's error state is obeyed
        assert out[f'underflow_{tag}'].all() and out[f'raised_{tag}'].all(), tag


def test_one_thread_declines(thread_results):
    out = thread_results(PROGRAM, 1)
    for tag in ('float32', 'float64'):
        a, b = out[f'a_{tag}'], out[f'b_{tag}']
        for name in ('add', 'mul', 'scale'):
            assert out[f'{name}_{tag}'].size == 0, name
        assert out[f'var_add_{tag}'].tobytes() == (a + b).tobytes()
        assert out[f'var_scale_{tag}'].tobytes() == (a * a.dtype.type(0.3)).tobytes()
        assert out[f'warned_{tag}'].all() and out[f'raised_{tag}'].all(), tag


N = 1 << 18
LARGE = np.ones(N, np.float32)


@pytest.mark.parametrize(
    'a, b',
    [
        (np.ones(N - 1, np.float32), np.ones(N - 1, np.float32)),  # small
        (LARGE, np.ones(N, np.float64)),  # dtypes differ
        (LARGE, np.ones((N // 2, 2), np.float32)),  # shapes differ
        (np.ones(N, np.float16), np.ones(N, np.float16)),
        (np.ones(N, np.int32), np.ones(N, np.int32)),
        (np.ones(2 * N, np.float32)[::2], LARGE),  # not contiguous
        (np.asfortranarray(np.ones((512, 512), np.float32)),) * 2,
        (LARGE, 1.0),
        (LARGE.tolist()[:4], LARGE),
        (LARGE.view(np.matrix), LARGE),
    ],
)
def test_declines(a, b):
    assert ewise.add(a, b) is None
    assert ewise.mul(a, b) is None


@pytest.mark.parametrize(
    'a, c',
    [
        (np.ones(N - 1, np.float32), np.array(2, np.float32)),  # small
        (LARGE, np.array(2, np.float64)),  # dtypes differ
        (LARGE, np.array([2], np.float32)),  # not 0-d
        (LARGE, 2.0),
        (LARGE, np.float32(2)),  # a NumPy scalar, not an array
        (np.ones(N, np.float16), np.array(2, np.float16)),
        (np.ones(2 * N, np.float32)[::2], np.array(2, np.float32)),
        (np.asfortranarray(np.ones((512, 512), np.float32)), np.array(2, np.float32)),
        (LARGE.view(np.matrix), np.array(2, np.float32)),
    ],
)
def test_scale_declines(a, c):
    assert ewise.scale(a, c) is None
