"""The oneDNN convolutions (``chainerlite._kernels.onednn``) and the
convolution functions on both paths (``use_ideep`` 'always' and 'never').

Where oneDNN is not installed (the plain test venv) only the tests of its
absence run; ``make test-onednn`` runs them all in a venv with the
``onednn`` extra.
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
from chainerlite.backends import intel64

needs_onednn = pytest.mark.skipif(
    not onednn.available(), reason='oneDNN is not installed'
)

# (x shape, out channels, ksize, stride, pad, dilate, groups, cover_all)
CASES = [
    ((2, 6, 9, 9), 4, 3, 1, 1, 1, 1, False),
    ((2, 6, 9, 7), 4, (3, 2), (2, 1), (1, 0), 1, 2, False),
    ((3, 4, 11, 11), 6, 3, 2, 0, 2, 2, True),
    ((2, 3, 7, 7), 5, 2, 3, 1, 1, 1, True),
    ((2, 32, 8, 8), 64, 1, 2, 0, 1, 1, False),
    ((2, 64, 6, 6), 32, 3, 1, 1, 1, 1, False),
]


def _data(case, seed=0):
    shape, c_out, ksize, stride, pad, dilate, groups, cover_all = case
    rng = np.random.default_rng(seed)
    k = ksize if isinstance(ksize, tuple) else (ksize, ksize)
    x = rng.standard_normal(shape).astype(np.float32)
    W = rng.standard_normal((c_out, shape[1] // groups) + k).astype(np.float32)
    b = rng.standard_normal(c_out).astype(np.float32)
    kwargs = dict(stride=stride, pad=pad, dilate=dilate, groups=groups)
    return x, W, b, dict(kwargs, cover_all=cover_all)


def _forward_backward(x, W, b, kwargs, mode):
    xv, Wv, bv = (chainerlite.Variable(a.copy()) for a in (x, W, b))
    with chainerlite.using_config('use_ideep', mode):
        y = F.convolution_2d(xv, Wv, bv, **kwargs)
        y.grad = np.cos(np.arange(y.size, dtype=np.float32)).reshape(y.shape)
        y.backward()
    return y.array, xv.grad, Wv.grad, bv.grad


@needs_onednn
@pytest.mark.parametrize('case', CASES)
def test_both_paths_agree(case):
    # within the tolerances of Chainer's convolution tests for float32
    x, W, b, kwargs = _data(case)
    ours = _forward_backward(x, W, b, kwargs, 'never')
    theirs = _forward_backward(x, W, b, kwargs, 'always')
    for a, e in zip(theirs, ours):
        assert a.dtype == e.dtype and a.shape == e.shape
        np.testing.assert_allclose(a, e, atol=1e-5 * max(1, abs(e).max()), rtol=1e-4)


@needs_onednn
@pytest.mark.parametrize('case', CASES[:4])
def test_kernels_compute(case):
    # the entry points themselves give the results, not a decline
    x, W, b, kwargs = _data(case)
    params = kwargs.copy()
    y = F.convolution_2d(x, W, b, **params).array

    def pair(v):
        return v if isinstance(v, tuple) else (v, v)

    stride, pad, dilate = (pair(params[k]) for k in ('stride', 'pad', 'dilate'))
    groups = params['groups']
    got = onednn.conv2d(x, W, b, y.shape[2:], stride, pad, dilate, groups)
    np.testing.assert_allclose(got, y, atol=1e-4, rtol=1e-4)
    gy = np.ones_like(y)
    gx = onednn.conv2d_transpose(gy, W, x.shape[2:], stride, pad, dilate, groups)
    gW = onednn.conv2d_grad_weight(x, gy, W.shape[2:], stride, pad, dilate, groups)
    assert gx.shape == x.shape and gW.shape == W.shape


def _check_backward(fn, inputs, gy, mode):
    # in float32 (oneDNN takes no float64), so with a larger step and
    # tolerances than Chainer's float64 checks
    with chainerlite.using_config('use_ideep', mode):
        gradient_check.check_backward(
            fn, inputs, gy, dtype=None, eps=1e-2, atol=5e-3, rtol=5e-2
        )


@needs_onednn
@pytest.mark.parametrize('mode', ['always', 'never'])
@pytest.mark.parametrize('case', CASES[:3])
def test_check_backward(case, mode):
    x, W, b, kwargs = _data(case, seed=1)
    rng = np.random.default_rng(2)
    shape = F.convolution_2d(x, W, b, **kwargs).shape
    gy = rng.standard_normal(shape).astype(np.float32)
    _check_backward(
        lambda x, W, b: F.convolution_2d(x, W, b, **kwargs), (x, W, b), gy, mode
    )


@needs_onednn
def test_declines_what_it_does_not_take():
    x = np.ones((2, 4, 5, 5), np.float32)
    W = np.ones((3, 4, 3, 3), np.float32)
    args = ((5, 5), (1, 1), (1, 1), (1, 1), 1)
    assert onednn.conv2d(x, W, None, *args) is not None
    assert onednn.conv2d(x.astype(np.float64), W, None, *args) is None
    assert onednn.conv2d(x[:0], W, None, *args) is None
    assert onednn.conv2d(x, W, None, *args[:-1], 2) is None  # 4 % 2 but 3 % 2
    assert onednn.conv2d(x, W[:, :3], None, *args) is None  # channels differ
    assert onednn.conv2d(x, W, np.ones(2, np.float32), *args) is None  # bias
    # an output length that no right padding gives
    assert onednn.conv2d(x, W, None, (1, 1), *args[1:]) is None


def _run(code, **env):
    full = dict(os.environ, **env)
    out = subprocess.run(
        [sys.executable, '-c', textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        env=full,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_absent_library_declines():
    # simulated absence: the library path names no file
    out = _run(
        '''
        import numpy as np
        import chainerlite, chainerlite.functions as F
        from chainerlite._kernels import onednn
        from chainerlite.backends import intel64
        x = np.ones((2, 64, 6, 6), np.float32)
        W = np.ones((64, 64, 3, 3), np.float32)
        assert onednn.conv2d(x, W, None, (6, 6), (1, 1), (1, 1), (1, 1), 1) is None
        assert not intel64.is_ideep_available()
        assert not intel64.should_use_ideep('>=auto')
        assert not intel64.inputs_all_ready((x,))
        try:
            intel64.check_ideep_available()
        except RuntimeError as e:
            assert '/nowhere/libdnnl.so.3: not found' in str(e), e
        else:
            raise AssertionError('no error')
        with chainerlite.using_config('use_ideep', 'always'):
            y = F.convolution_2d(x, W, pad=1).array
        assert float(y[0, 0, 2, 2]) == 64 * 9
        print('ok')
        ''',
        CHAINERLITE_ONEDNN_LIBRARY='/nowhere/libdnnl.so.3',
    )
    assert out.strip() == 'ok'


@needs_onednn
@pytest.mark.parametrize('threads', [1, 2])
def test_threads_follow_openmp(threads):
    # oneDNN reports the thread count it runs with; it is the OpenMP one
    out = _run(
        '''
        import numpy as np
        from chainerlite._kernels import onednn
        x = np.ones((2, 16, 6, 6), np.float32)
        W = np.ones((16, 16, 3, 3), np.float32)
        y = onednn.conv2d(x, W, None, (6, 6), (1, 1), (1, 1), (1, 1), 1)
        assert y is not None and y[0, 0, 2, 2] == 16 * 9
        ''',
        OMP_NUM_THREADS=str(threads),
        ONEDNN_VERBOSE='1',
    )
    assert 'nthr:{}'.format(threads) in out, out[:400]


@needs_onednn
def test_intel64_reports_onednn():
    assert intel64.is_ideep_available()
    intel64.check_ideep_available()
    x = np.zeros((2, 3), np.float32)
    assert intel64.inputs_all_ready((x, chainerlite.Variable(x)))
    assert not intel64.inputs_all_ready((x.astype(np.float64),))
    assert not intel64.inputs_all_ready((np.zeros(3, np.float32),))
    expected = {'always': (True, True), 'auto': (True, False), 'never': (False, False)}
    for mode, answers in expected.items():
        with chainerlite.using_config('use_ideep', mode):
            assert (
                intel64.should_use_ideep('>=auto'),
                intel64.should_use_ideep('==always'),
            ) == answers
    with chainerlite.using_config('use_ideep', True):
        with pytest.raises(ValueError, match='use_ideep'):
            intel64.should_use_ideep('>=auto')
    with pytest.raises(ValueError, match='level'):
        intel64.should_use_ideep('==auto')


class _Recorder:
    # stands in for the kernel module (with oneDNN reported available):
    # records which entry points were asked
    def __init__(self):
        self.calls = []

    def __getattr__(self, name):
        def entry(*args):
            self.calls.append(name)

        return entry


@pytest.mark.parametrize(
    'mode, shape, ksize, asked',
    [
        ('never', (2, 32, 6, 6), 3, False),
        ('always', (2, 3, 6, 6), 1, True),
        ('auto', (2, 32, 6, 6), 3, True),
        ('auto', (2, 3, 6, 6), 3, False),  # few input channels
        ('auto', (2, 32, 6, 6), 1, True),  # a 1x1 window
    ],
)
def test_use_ideep_chooses_the_path(monkeypatch, mode, shape, ksize, asked):
    from chainerlite.functions.connection import _onednn_conv

    recorder = _Recorder()
    monkeypatch.setattr(_onednn_conv, 'onednn', recorder)
    monkeypatch.setattr(intel64, 'is_ideep_available', lambda: True)
    x = chainerlite.Variable(np.ones(shape, np.float32))
    W = chainerlite.Variable(np.ones((8, shape[1], ksize, ksize), np.float32))
    with chainerlite.using_config('use_ideep', mode):
        y = F.convolution_2d(x, W)
        y.grad = np.ones_like(y.array)
        y.backward()
    expected = ['conv2d', 'conv2d_transpose', 'conv2d_grad_weight'] if asked else []
    assert recorder.calls == expected
    # the recorder declined each time: chainerlite's own path computed
    assert y.array[0, 0, 0, 0] == shape[1] * ksize * ksize


def _bn(x, mode):
    rng = np.random.default_rng(3)
    c = x.shape[1]
    gamma = rng.uniform(0.5, 1.5, c).astype(np.float32)
    beta = rng.standard_normal(c).astype(np.float32)
    bn = chainerlite.links.BatchNormalization(c)
    bn.gamma.array[...] = gamma
    bn.beta.array[...] = beta
    xv = chainerlite.Variable(x.copy())
    with chainerlite.using_config('use_ideep', mode):
        y = bn(xv)
        y.grad = np.sin(np.arange(y.size, dtype=np.float32)).reshape(y.shape)
        y.backward()
    return y.array, xv.grad, bn.gamma.grad, bn.beta.grad, bn.avg_mean, bn.avg_var


@needs_onednn
@pytest.mark.parametrize('shape', [(5, 3), (4, 6, 5, 3), (2, 16, 4, 4)])
def test_batch_normalization_both_paths_agree(shape):
    x = np.random.default_rng(4).standard_normal(shape).astype(np.float32) * 3 + 1
    ours = _bn(x, 'never')
    theirs = _bn(x, 'always')
    for a, e in zip(theirs, ours):
        assert a.dtype == e.dtype and a.shape == e.shape
        np.testing.assert_allclose(a, e, atol=1e-4, rtol=1e-4)


@needs_onednn
@pytest.mark.parametrize('mode', ['always', 'never'])
def test_batch_normalization_check_backward(mode):
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 3, 3, 2)).astype(np.float32)
    gamma = rng.uniform(0.5, 1.5, 3).astype(np.float32)
    beta = rng.standard_normal(3).astype(np.float32)
    gy = rng.standard_normal(x.shape).astype(np.float32)
    _check_backward(F.batch_normalization, (x, gamma, beta), gy, mode)


@needs_onednn
def test_batch_norm_kernel_declines():
    x = np.ones((2, 3, 4, 4), np.float32)
    p = np.ones(3, np.float32)
    y, mean, var = onednn.batch_norm(x, p, p, 2e-5)
    assert mean.shape == var.shape == (3,)
    assert onednn.batch_norm(x.astype(np.float64), p, p, 2e-5) is None
    assert onednn.batch_norm(x[..., 0], p, p, 2e-5) is None  # 3 axes
    assert onednn.batch_norm(x, p[:2], p, 2e-5) is None
    assert onednn.batch_norm_grad(x, p, mean, var, x[:1], 2e-5) is None
    assert onednn.batch_norm_grad(x, p, mean, var[:2], x, 2e-5) is None


@pytest.mark.parametrize(
    'mode, shape, asked',
    [
        ('never', (2, 3, 2, 2), []),
        # blocks of 4: the one-pass kernel declines, oneDNN is asked
        ('auto', (2, 3, 2, 2), ['batch_norm', 'batch_norm_grad']),
        ('auto', (3, 5), ['batch_norm', 'batch_norm_grad']),
        # blocks of 16: the one-pass kernel (faster) computes
        ('auto', (2, 3, 4, 4), []),
        ('always', (2, 3, 4, 4), ['batch_norm', 'batch_norm_grad']),
        ('always', (2, 3, 4), []),  # 3 axes: not taken
    ],
)
def test_use_ideep_chooses_the_norm_path(monkeypatch, mode, shape, asked):
    from chainerlite.functions.normalization import _onednn_norm

    recorder = _Recorder()
    monkeypatch.setattr(_onednn_norm, 'onednn', recorder)
    monkeypatch.setattr(intel64, 'is_ideep_available', lambda: True)
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    y = _bn(x, mode)[0]
    assert recorder.calls == asked
    # the recorder declined: NumPy normalized
    with chainerlite.using_config('use_ideep', 'never'):
        expected = _bn(x, 'never')[0]
    np.testing.assert_array_equal(y, expected)


@needs_onednn
def test_python_threads_at_once():
    # each call runs on a stream of its own: threads do not share one
    import concurrent.futures

    x, W, b, kwargs = _data(CASES[5])
    args = ((6, 6), (1, 1), (1, 1), (1, 1), 1)
    expected = onednn.conv2d(x, W, b, *args)
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: onednn.conv2d(x, W, b, *args), range(32)))
    for y in results:
        np.testing.assert_array_equal(y, expected)


@needs_onednn
def test_workspace_kept_between_calls_of_other_sizes():
    # the workspace a call leaves is reused by smaller calls and replaced
    # for larger ones: each result is the one computed afresh
    small, large = _data(CASES[5]), _data(((4, 64, 12, 12),) + CASES[5][1:])
    args = ((1, 1), (1, 1), (1, 1), 1)
    expected = [F.convolution_2d(x, W, b, pad=1).array for x, W, b, _ in (small, large)]
    for k in (0, 1, 0, 1, 1, 0):
        x, W, b, _ = (small, large)[k]
        got = onednn.conv2d(x, W, b, x.shape[2:], *args)
        np.testing.assert_allclose(got, expected[k], atol=1e-4, rtol=1e-4)
        gx = onednn.conv2d_transpose(got, W, x.shape[2:], *args)
        back = F.deconvolution_2d(expected[k], W, pad=1, outsize=x.shape[2:]).array
        np.testing.assert_allclose(gx, back, atol=1e-3 * abs(back).max(), rtol=1e-4)


@needs_onednn
def test_bad_use_ideep_raises_as_chainer():
    # Chainer raises for a use_ideep that is none of its values where iDeep
    # is available (where it is absent, the NumPy path runs)
    x = np.ones((1, 16, 4, 4), np.float32)
    W = np.ones((16, 16, 3, 3), np.float32)
    with chainerlite.using_config('use_ideep', True):
        with pytest.raises(ValueError, match='use_ideep'):
            F.convolution_2d(x, W)


@pytest.mark.parametrize(
    'library, setting, expected',
    [
        ('present', None, 'auto'),
        ('missing', None, 'never'),
        ('present', 'never', 'never'),
        ('missing', 'always', 'always'),
    ],
)
def test_use_ideep_default_follows_the_extra(tmp_path, library, setting, expected):
    # 'auto' by default where the onednn extra's library is installed (found
    # without loading it), Chainer's 'never' elsewhere; CHAINER_USE_IDEEP wins
    path = tmp_path / 'libdnnl.so.3'
    if library == 'present':
        path.write_bytes(b'not a library')
    env = dict(os.environ, CHAINERLITE_ONEDNN_LIBRARY=str(path))
    env.pop('CHAINER_USE_IDEEP', None)
    if setting is not None:
        env['CHAINER_USE_IDEEP'] = setting
    code = 'import chainerlite; print(chainerlite.config.use_ideep)'
    out = subprocess.run(
        [sys.executable, '-c', code],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == expected
