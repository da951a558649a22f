"""oneDNN's matrix product (``chainerlite._kernels.onednn.matmul``) and the
functions that take it (``F.linear``, ``F.matmul``, ``F.batch_matmul``) on
both paths, ``use_ideep`` 'always' or 'auto' and 'never'.

Where oneDNN is not installed only the tests of its absence run; ``make
test-onednn`` runs them all.
"""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite._kernels import onednn

needs_onednn = pytest.mark.skipif(
    not onednn.available(), reason='oneDNN is not installed'
)


def _array(rng, shape):
    return rng.standard_normal(shape).astype(np.float32)


def _close(actual, expected):
    # float32 sums in another order than NumPy's BLAS
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    scale = max(1.0, float(abs(expected).max()))
    np.testing.assert_allclose(actual, expected, atol=1e-5 * scale, rtol=1e-4)


# (a, b) shapes before transposition, transa, transb
KERNEL_CASES = [
    ((5, 7), (7, 3), False, False),
    ((7, 5), (7, 3), True, False),
    ((5, 7), (3, 7), False, True),
    ((7, 5), (3, 7), True, True),
    ((2, 3, 5, 7), (2, 3, 7, 4), False, False),
    ((2, 1, 5, 7), (1, 3, 4, 7), False, True),  # batch axes broadcast
    ((1, 5), (5, 1), False, False),
]


@needs_onednn
@pytest.mark.parametrize('case', KERNEL_CASES)
def test_kernel_agrees_with_numpy(case):
    a_shape, b_shape, transa, transb = case
    rng = np.random.default_rng(0)
    a, b = _array(rng, a_shape), _array(rng, b_shape)
    ta = a.swapaxes(-1, -2) if transa else a
    tb = b.swapaxes(-1, -2) if transb else b
    expected = np.matmul(ta, tb)
    y = onednn.matmul(a, b, None, transa, transb)
    _close(y, expected)
    assert y.flags.c_contiguous
    _close(onednn.matmul(ta, tb), expected)  # the views, read in place
    bias = _array(rng, expected.shape[-1])
    _close(onednn.matmul(a, b, bias, transa, transb), expected + bias)


@needs_onednn
def test_kernel_reads_strided_views():
    # the q, k of an attention: views of one (batch, seq, 3, heads, dh) array
    rng = np.random.default_rng(1)
    q, k, _ = _array(rng, (2, 6, 3, 2, 4)).transpose(2, 0, 3, 1, 4)
    _close(onednn.matmul(q, k, transb=True), np.matmul(q, k.swapaxes(-1, -2)))
    rows = _array(rng, (8, 10))[::2]
    _close(onednn.matmul(rows, rows.T), rows @ rows.T)
    # neither matrix axis of stride 1: its kernels do not take it
    every_other = _array(rng, (8, 10))[::2, ::2]
    assert onednn.matmul(every_other, every_other.T) is None


@needs_onednn
def test_kernel_declines_what_it_does_not_take():
    a, b = np.ones((3, 4), np.float32), np.ones((4, 2), np.float32)
    assert onednn.matmul(a, b) is not None
    assert onednn.matmul(a.astype(np.float64), b) is None
    assert onednn.matmul(a, b.astype(np.float16)) is None
    assert onednn.matmul(a[:0], b) is None  # empty
    assert onednn.matmul(a, b[:3]) is None  # inner lengths differ
    assert onednn.matmul(a[None], b) is None  # numbers of axes differ
    assert onednn.matmul(a[0], b[:, 0]) is None  # 1-d
    stacks = np.ones((2, 3, 4), np.float32), np.ones((3, 4, 2), np.float32)
    assert onednn.matmul(*stacks) is None  # batch axes 2 and 3
    assert onednn.matmul(a[::-1], b) is None  # negative stride
    assert onednn.matmul(np.broadcast_to(a[:1], (3, 4)), b) is None  # stride 0
    assert onednn.matmul(a, b, np.ones(3, np.float32)) is None  # bias length
    assert onednn.matmul(a, b, np.ones(2, np.float64)) is None  # bias dtype
    assert onednn.matmul(list(a), b) is None
    seven = np.ones((1,) * 7, np.float32)
    assert onednn.matmul(seven, seven) is None  # more axes than 6


@needs_onednn
def test_chosen_matmul_follows_size_and_use_ideep():
    rng = np.random.default_rng(2)
    side = 128  # 128 ** 3 multiply-adds: over MIN_PRODUCT
    assert side**3 >= onednn.MIN_PRODUCT > 64**3
    big, small = _array(rng, (side, side)), _array(rng, (64, 64))
    # 1024 * 1024 * 1032 multiply-adds: over MAX_PRODUCT (declined unrun)
    huge = np.zeros((1024, 1024), np.float32)
    huge_b = np.zeros((1024, 1032), np.float32)
    assert 1024 * 1024 * 1032 > onednn.MAX_PRODUCT >= 4096 * 256 * 1024
    for mode, taken in (('always', True), ('auto', True), ('never', False)):
        with chainerlite.using_config('use_ideep', mode):
            y = onednn.chosen_matmul(big, big, transb=True)
            assert (y is not None) == taken
            if taken:
                _close(y, big @ big.T)
            assert onednn.chosen_matmul(small, small) is None
            assert onednn.chosen_matmul(huge, huge_b) is None
            assert onednn.chosen_matmul(big.astype(np.float64), big) is None
            assert onednn.chosen_matmul(big, big[0]) is None


def _run(code, **env):
    out = subprocess.run(
        [sys.executable, '-c', textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, **env),
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


@needs_onednn
def test_functions_run_on_onednn_where_chosen():
    # oneDNN's log of the primitives it runs: F.linear's product and its two
    # gradients, F.matmul's and F.batch_matmul's, on 'auto' only
    code = '''
        import warnings
        import numpy as np
        import chainerlite, chainerlite.functions as F
        rng = np.random.default_rng(0)
        x = chainerlite.Variable(rng.standard_normal((128, 96)).astype(np.float32))
        W = chainerlite.Variable(rng.standard_normal((96, 96)).astype(np.float32))
        a = rng.standard_normal((4, 64, 64)).astype(np.float32)
        with chainerlite.using_config('use_ideep', '{}'):
            print('step linear', flush=True)
            y = F.linear(x, W)
            y.grad = np.ones(y.shape, np.float32)  # not a broadcast view
            y.backward()
            print('step matmul', flush=True)
            F.matmul(a, a, transb=True)
            print('step batch_matmul', flush=True)
            with warnings.catch_warnings():
                warnings.simplefilter('ignore', DeprecationWarning)
                F.batch_matmul(a, a, transa=True)
        '''
    for mode, runs in (('auto', (3, 1, 1)), ('never', (0, 0, 0))):
        out = _run(code.format(mode), ONEDNN_VERBOSE='1')
        parts = out.split('step ')[1:]
        counts = [
            sum(',exec,' in line and ',matmul,' in line for line in p.splitlines())
            for p in parts
        ]
        assert counts == list(runs), out[-2000:]


def _linear_grads(x, W, b, mode, gy):
    xv, Wv, bv = (chainerlite.Variable(a.copy()) for a in (x, W, b))
    with chainerlite.using_config('use_ideep', mode):
        y = F.linear(xv, Wv, bv)
        y.grad = gy
        y.backward()
    return y.array, xv.grad, Wv.grad, bv.grad


@needs_onednn
@pytest.mark.parametrize('shape', [(256, 64, 96), (40, 300, 200)])
def test_linear_both_paths_agree(shape):
    n, k, m = shape
    rng = np.random.default_rng(3)
    x, W, b = _array(rng, (n, k)), _array(rng, (m, k)), _array(rng, m)
    gy = _array(rng, (n, m))
    ours = _linear_grads(x, W, b, 'never', gy)
    theirs = _linear_grads(x, W, b, 'auto', gy)
    for a, e in zip(theirs, ours):
        _close(a, e)


@needs_onednn
@pytest.mark.parametrize('mode', ['always', 'never'])
def test_linear_check_backward(mode):
    rng = np.random.default_rng(4)
    x, W, b = _array(rng, (128, 96)), _array(rng, (96, 96)), _array(rng, 96)
    gy = _array(rng, (128, 96))
    ggx, ggW, ggb = _array(rng, x.shape), _array(rng, W.shape), _array(rng, b.shape)
    with chainerlite.using_config('use_ideep', mode):
        gradient_check.check_backward(
            F.linear, (x, W, b), gy, dtype=None, eps=1e-2, atol=5e-3, rtol=5e-2
        )
        gradient_check.check_double_backward(
            F.linear,
            (x, W, b),
            gy,
            (ggx, ggW, ggb),
            dtype=None,
            eps=1e-2,
            atol=5e-3,
            rtol=5e-2,
        )


@needs_onednn
@pytest.mark.parametrize('mode', ['always', 'never'])
@pytest.mark.parametrize('transa, transb', [(0, 0), (1, 0), (0, 1)])
def test_matmul_check_backward(mode, transa, transb):
    rng = np.random.default_rng(5)
    a = _array(rng, (4, 64, 64))
    b = _array(rng, (4, 64, 80))
    a = a.swapaxes(1, 2).copy() if transa else a
    b = b.swapaxes(1, 2).copy() if transb else b
    gy = _array(rng, (4, 64, 80))

    def f(a, b):
        return F.matmul(a, b, transa=transa, transb=transb)

    with chainerlite.using_config('use_ideep', mode):
        gradient_check.check_backward(
            f, (a, b), gy, dtype=None, eps=1e-2, atol=5e-3, rtol=5e-2
        )


@needs_onednn
def test_matmul_both_paths_agree_with_broadcast_batches():
    rng = np.random.default_rng(6)
    a, b = _array(rng, (3, 1, 64, 80)), _array(rng, (1, 2, 96, 80))
    gy = _array(rng, (3, 2, 64, 96))
    results = []
    for mode in ('never', 'auto'):
        av, bv = chainerlite.Variable(a.copy()), chainerlite.Variable(b.copy())
        with chainerlite.using_config('use_ideep', mode):
            y = F.matmul(av, bv, transb=True)
            y.grad = gy
            y.backward()
        results.append((y.array, av.grad, bv.grad))
    for got, expected in zip(results[1], results[0]):
        _close(got, expected)


@needs_onednn
def test_python_threads_at_once():
    import concurrent.futures

    rng = np.random.default_rng(7)
    a, b = _array(rng, (96, 128)), _array(rng, (128, 64))
    expected = onednn.matmul(a, b)
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: onednn.matmul(a, b), range(32)))
    for y in results:
        np.testing.assert_array_equal(y, expected)


def test_absent_library_keeps_numpy():
    out = _run(
        '''
        import numpy as np
        import chainerlite, chainerlite.functions as F
        from chainerlite._kernels import onednn
        a = np.ones((128, 128), np.float32)
        assert onednn.matmul(a, a) is None
        with chainerlite.using_config('use_ideep', 'always'):
            assert onednn.chosen_matmul(a, a) is None
            y = F.linear(a, a, np.ones(128, np.float32)).array
            z = F.matmul(a, a).array
        assert float(y[0, 0]) == 129 and float(z[0, 0]) == 128
        print('ok')
        ''',
        CHAINERLITE_ONEDNN_LIBRARY='/nowhere/libdnnl.so.3',
    )
    assert out.strip() == 'ok'
