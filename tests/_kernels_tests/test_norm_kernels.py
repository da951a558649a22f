"""The one-pass softmax, log-softmax and layer normalization kernels
(``chainerlite._kernels.norm``) against the same expressions computed in
float64, within the module's PRECISION, forward and backward; special
values; and the declines (None, nothing computed)."""

import numpy as np
import pytest

from chainerlite._kernels import norm

FLOATS = [np.float32, np.float64]
TOL = {np.float32: 1e-6, np.float64: 1e-14}
# the last ones are large enough for two threads to share (PARALLEL_MIN)
SHAPES = [(1, 1), (7, 1), (5, 3), (4, 8), (33, 17), (3, 100), (2, 3, 129), (600, 300)]


def _close(got, want, dtype, size=0.0):
    # within TOL times the largest magnitude of the exact output, or size
    # (the gradients: that of the output gradient, times gamma's)
    assert got.dtype == dtype and got.shape == want.shape
    scale = max(np.abs(want).max(), size, np.finfo(np.float64).tiny)
    assert np.abs(got - want).max() <= TOL[dtype] * scale


def _softmax(x, log):
    x = x.astype(np.float64)
    s = x - x.max(-1, keepdims=True)
    if log:
        return s - np.log(np.exp(s).sum(-1, keepdims=True))
    return np.exp(s) / np.exp(s).sum(-1, keepdims=True)


def _softmax_grad(y, gy, log):
    y, gy = y.astype(np.float64), gy.astype(np.float64)
    if log:
        return gy - np.exp(y) * gy.sum(-1, keepdims=True)
    return y * (gy - (y * gy).sum(-1, keepdims=True))


@pytest.mark.parametrize('dtype', FLOATS)
@pytest.mark.parametrize('shape', SHAPES)
@pytest.mark.parametrize('log', [False, True])
def test_softmax_matches_float64(dtype, shape, log):
    rng = np.random.default_rng(len(shape) * 100 + shape[-1])
    x = (rng.standard_normal(shape) * 8).astype(dtype)
    y = norm.softmax(x, -1, log)
    _close(y, _softmax(x, log), dtype)
    gy = rng.standard_normal(shape).astype(dtype)
    gx = norm.softmax_grad(y, gy, len(shape) - 1, log)
    _close(gx, _softmax_grad(y, gy, log), dtype, np.abs(gy).max())


@pytest.mark.parametrize('dtype', FLOATS)
def test_softmax_along_an_axis_before_trailing_ones(dtype):
    x = np.random.default_rng(1).standard_normal((4, 6, 1, 1)).astype(dtype)
    want = _softmax(x.reshape(4, 6), False).reshape(4, 6, 1, 1)
    _close(norm.softmax(x, 1, False), want, dtype)


@pytest.mark.parametrize('dtype', FLOATS)
def test_softmax_special_values(dtype):
    x = np.array([[0, -np.inf, 3], [np.nan, 1, 2], [-1000, 0, 1e30], [5, 5, 5]], dtype)
    y = norm.softmax(x, 1, False)
    np.testing.assert_array_equal(np.isnan(y[1]), True)
    np.testing.assert_array_equal(y[[0, 2, 3]] >= 0, True)
    assert y[0, 1] == 0 and y[2].tolist() == [0, 0, 1]
    np.testing.assert_allclose(y[3], 1 / 3, rtol=TOL[dtype] * 4)
    log_y = norm.softmax(x, 1, True)
    assert log_y[0, 1] == -np.inf and np.isnan(log_y[1]).all()
    assert log_y[2, 2] == 0 and log_y[2, 0] == dtype(-1e30)


@pytest.mark.parametrize('dtype', FLOATS)
@pytest.mark.parametrize(
    'shape', [(1, 1), (3, 1), (5, 3), (16, 8), (9, 100), (2, 257), (200, 5), (1030, 70)]
)
def test_layer_norm_matches_float64(dtype, shape):
    rng = np.random.default_rng(shape[1])
    x = (rng.standard_normal(shape) * 3 + 2).astype(dtype)
    gamma, beta = (rng.standard_normal(shape[1]).astype(dtype) for _ in range(2))
    gy = rng.standard_normal(shape).astype(dtype)
    eps = 1e-5
    x64, g64, gy64 = (a.astype(np.float64) for a in (x, gamma, gy))
    mean = x64.mean(1, keepdims=True)
    inv = 1 / np.sqrt(((x64 - mean) ** 2).mean(1, keepdims=True) + eps)
    xhat = (x64 - mean) * inv
    _close(norm.layer_norm(x, gamma, beta, eps), xhat * g64 + beta, dtype)
    gh = gy64 * g64
    gx = inv * (
        gh - gh.mean(1, keepdims=True) - xhat * (gh * xhat).mean(1, keepdims=True)
    )
    got = norm.layer_norm_grad(x, gamma, gy, eps)
    size = np.abs(gy).max() * np.abs(gamma).max()
    for g, want in zip(got, (gx, (gy64 * xhat).sum(0), gy64.sum(0))):
        _close(g, want, dtype, size)


@pytest.mark.parametrize('dtype', FLOATS)
def test_layer_norm_of_constant_rows(dtype):
    x = np.full((3, 5), 2.5, dtype)
    gamma = np.arange(5, dtype=dtype)
    beta = np.ones(5, dtype)
    np.testing.assert_array_equal(norm.layer_norm(x, gamma, beta, 1e-5), 1)
    gy = np.random.default_rng(0).standard_normal((3, 5)).astype(dtype)
    gx, ggamma, gbeta = norm.layer_norm_grad(x, gamma, gy, 1e-5)
    # xhat is zero: gx = (gy gamma - mean(gy gamma)) / sqrt(eps)
    gh = gy.astype(np.float64) * gamma
    want = (gh - gh.mean(1, keepdims=True)) / np.sqrt(1e-5)
    _close(gx, want, dtype, np.abs(want).max())
    np.testing.assert_array_equal(ggamma, 0)
    np.testing.assert_array_equal(gbeta, gy.sum(0, dtype=np.float64).astype(dtype))


def test_declines():
    x = np.ones((4, 6), np.float32)
    g = np.ones(6, np.float32)
    for bad in (
        x.astype(np.float16),
        x.T,
        x[:, ::2],
        np.ones((0, 6), np.float32),
        list(x),
    ):
        assert norm.softmax(bad, -1, False) is None
    assert norm.softmax(x, 0, False) is None  # not the last axis
    assert norm.softmax(x, 2, False) is None
    assert norm.softmax(x, np.int64(1), False) is None
    assert norm.softmax_grad(x, x.astype(np.float64), 1, False) is None
    assert norm.softmax_grad(x, x[:2], 1, False) is None
    assert norm.layer_norm(x, g, g, np.float32(1e-5)) is None
    assert norm.layer_norm(x, g.astype(np.float64), g, 1e-5) is None
    assert norm.layer_norm(x, g[:5], g[:5], 1e-5) is None
    assert norm.layer_norm(x.reshape(2, 2, 6), g, g, 1e-5) is None
    assert norm.layer_norm(np.ones((0, 6), np.float32), g, g, 1e-5) is None
    assert norm.layer_norm_grad(x, g, x.astype(np.float64), 1e-5) is None
    assert norm.layer_norm_grad(x, g, x[:, ::-1], 1e-5) is None


@pytest.mark.parametrize('dtype', FLOATS)
@pytest.mark.parametrize(
    'shape, groups',
    [
        ((2, 4), 2),
        ((3, 6, 5), 3),
        ((2, 8, 3, 3), 2),
        ((1, 3, 1, 7), 1),
        ((70, 4, 3), 2),
        ((300, 8, 16, 4), 4),
    ],
)
def test_group_norm_matches_float64(dtype, shape, groups):
    rng = np.random.default_rng(shape[1] + groups)
    x = (rng.standard_normal(shape) * 3 + 1).astype(dtype)
    c = shape[1]
    gamma, beta = (rng.standard_normal(c).astype(dtype) for _ in range(2))
    gy = rng.standard_normal(shape).astype(dtype)
    eps = 1e-5
    pshape = (1, c) + (1,) * (len(shape) - 2)
    x64 = x.astype(np.float64).reshape(shape[0], groups, -1)
    mean = x64.mean(2, keepdims=True)
    inv = 1 / np.sqrt(((x64 - mean) ** 2).mean(2, keepdims=True) + eps)
    xhat = ((x64 - mean) * inv).reshape(shape)
    g64 = gamma.astype(np.float64).reshape(pshape)
    want = xhat * g64 + beta.reshape(pshape)
    _close(norm.group_norm(x, gamma, beta, groups, eps), want, dtype)
    gh = (gy * g64).reshape(shape[0], groups, -1)
    xh = xhat.reshape(gh.shape)
    gx = inv * (gh - gh.mean(2, keepdims=True) - xh * (gh * xh).mean(2, keepdims=True))
    axes = (0,) + tuple(range(2, len(shape)))
    wants = (gx.reshape(shape), (gy * xhat).sum(axes), gy.astype(np.float64).sum(axes))
    size = np.abs(gy).max() * np.abs(gamma).max()
    for got, want in zip(norm.group_norm_grad(x, gamma, gy, groups, eps), wants):
        _close(got, want, dtype, size)


def test_group_norm_declines():
    x = np.ones((2, 6, 3), np.float32)
    g = np.ones(6, np.float32)
    assert norm.group_norm(x, g, g, 4, 1e-5) is None  # 6 channels, 4 groups
    assert norm.group_norm(x, g, g, 0, 1e-5) is None
    assert norm.group_norm(x, g, g, np.int64(2), 1e-5) is None
    assert norm.group_norm(x, g.astype(np.float64), g, 2, 1e-5) is None
    assert norm.group_norm(x[:, :, ::2], g, g, 2, 1e-5) is None
    assert norm.group_norm(x[:, :0], g[:0], g[:0], 2, 1e-5) is None
    assert norm.group_norm_grad(x, g, x.astype(np.float64), 2, 1e-5) is None


def test_functions_take_the_kernels_and_differentiate_twice():
    # F.softmax, F.log_softmax, F.layer_normalization and
    # F.group_normalization give the kernels' outputs, and their grad nodes
    # (whose forward is the kernel) are differentiable again
    import chainerlite.functions as F
    from chainerlite import gradient_check

    rng = np.random.default_rng(5)
    x = rng.standard_normal((3, 4))
    gamma, beta = rng.standard_normal(4), rng.standard_normal(4)
    gy, ggx = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    cases = [
        (lambda x: F.softmax(x), norm.softmax(x, 1, False)),
        (lambda x: F.log_softmax(x), norm.softmax(x, 1, True)),
        (
            lambda x: F.layer_normalization(x, gamma, beta),
            norm.layer_norm(x, gamma, beta, 1e-5),
        ),
        (
            lambda x: F.group_normalization(x, 2, gamma, beta),
            norm.group_norm(x, gamma, beta, 2, 1e-5),
        ),
    ]
    for f, want in cases:
        np.testing.assert_array_equal(f(x).array, want)
        gradient_check.check_double_backward(f, x, gy, ggx, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize('dtype', FLOATS)
@pytest.mark.parametrize(
    'shape', [(2, 3, 8), (5, 4, 3, 3), (1, 2, 17, 5), (7, 3, 4, 4), (64, 8, 16, 16)]
)
def test_batch_norm_matches_float64(dtype, shape):
    rng = np.random.default_rng(shape[1] * 7 + shape[-1])
    x = (rng.standard_normal(shape) * 2 + 5).astype(dtype)
    c = shape[1]
    gamma, beta = (rng.standard_normal(c).astype(dtype) for _ in range(2))
    gy = rng.standard_normal(shape).astype(dtype)
    eps = 2e-5
    axes = (0,) + tuple(range(2, len(shape)))
    pshape = (1, c) + (1,) * (len(shape) - 2)
    x64 = x.astype(np.float64)
    mean = x64.mean(axes, keepdims=True)
    var = ((x64 - mean) ** 2).mean(axes, keepdims=True)
    inv = 1 / np.sqrt(var + eps)
    xhat = (x64 - mean) * inv
    g64 = gamma.astype(np.float64).reshape(pshape)
    y, got_mean, got_var = norm.batch_norm(x, gamma, beta, eps)
    _close(y, xhat * g64 + beta.reshape(pshape), dtype)
    _close(got_mean, mean.reshape(c), dtype)
    _close(got_var, var.reshape(c), dtype)
    gy64 = gy.astype(np.float64)
    gbeta, ggamma = gy64.sum(axes), (gy64 * xhat).sum(axes)
    m = x.size // c
    gx = (
        g64 * inv * (gy64 - (gbeta.reshape(pshape) + xhat * ggamma.reshape(pshape)) / m)
    )
    size = np.abs(gy).max() * np.abs(gamma).max() * np.abs(inv).max()
    got = norm.batch_norm_grad(x, gamma, gy, got_mean, got_var, eps)
    for g, want in zip(got, (gx, ggamma, gbeta)):
        _close(g, want, dtype, size)


def test_batch_norm_declines():
    x = np.ones((2, 3, 4, 4), np.float32)
    g = np.ones(3, np.float32)
    assert norm.batch_norm(x.reshape(2, 3, 16)[:, :, :4], g, g, 1e-5) is None
    assert norm.batch_norm(np.ones((4, 3), np.float32), g, g, 1e-5) is None
    assert norm.batch_norm(np.ones((4, 3, 2), np.float32), g, g, 1e-5) is None
    assert norm.batch_norm(x, g.astype(np.float64), g, 1e-5) is None
    assert norm.batch_norm(x, g, g, np.float64(1e-5)) is None
    assert norm.batch_norm_grad(x, g, x, g[:2], g, 1e-5) is None
    assert norm.batch_norm_grad(x, g, x.astype(np.float64), g, g, 1e-5) is None


def test_batch_normalization_takes_the_kernel_and_differentiates_twice():
    import chainerlite.functions as F
    from chainerlite import gradient_check

    rng = np.random.default_rng(6)
    x = rng.standard_normal((3, 2, 3, 3))
    gamma, beta = rng.standard_normal(2), rng.standard_normal(2)
    gy, ggx = rng.standard_normal(x.shape), rng.standard_normal(x.shape)

    def f(x):
        return F.batch_normalization(x, gamma, beta)

    np.testing.assert_array_equal(f(x).array, norm.batch_norm(x, gamma, beta, 2e-5)[0])
    gradient_check.check_double_backward(f, x, gy, ggx, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize('dtype', FLOATS)
@pytest.mark.parametrize('shape', [(2, 3, 8), (5, 4, 3, 3), (64, 8, 16, 16)])
def test_fixed_batch_norm_matches_float64(dtype, shape):
    rng = np.random.default_rng(shape[1])
    x = (rng.standard_normal(shape) * 2 + 5).astype(dtype)
    c = shape[1]
    gamma, beta, mean = (rng.standard_normal(c).astype(dtype) for _ in range(3))
    var = rng.random(c).astype(dtype) + 0.5
    gy = rng.standard_normal(shape).astype(dtype)
    pshape = (1, c) + (1,) * (len(shape) - 2)
    axes = (0,) + tuple(range(2, len(shape)))
    scale = gamma.astype(np.float64) / np.sqrt(var.astype(np.float64) + 2e-5)
    xc = x.astype(np.float64) - mean.reshape(pshape)
    want = xc * scale.reshape(pshape) + beta.reshape(pshape)
    _close(norm.batch_norm_fixed(x, gamma, beta, mean, var, 2e-5), want, dtype)
    gx, sgy, sgxc = norm.batch_norm_fixed_grad(x, gy, mean, scale)
    size = np.abs(gy).max() * np.abs(scale).max()
    _close(gx, gy * scale.reshape(pshape), dtype, size)
    np.testing.assert_allclose(sgy, gy.astype(np.float64).sum(axes), rtol=1e-12)
    np.testing.assert_allclose(sgxc, (gy * xc).sum(axes), rtol=1e-6, atol=1e-6)
    assert norm.batch_norm_fixed(x, gamma, beta, mean[:2], var, 2e-5) is None
    assert norm.batch_norm_fixed_grad(x, gy, list(mean), scale) is None


def test_fixed_batch_normalization_takes_the_kernel_and_differentiates_twice():
    import chainerlite.functions as F
    from chainerlite import gradient_check

    rng = np.random.default_rng(7)
    x = rng.standard_normal((3, 2, 3, 3))
    gamma, beta, mean = (rng.standard_normal(2) for _ in range(3))
    var = rng.random(2) + 0.5
    gy, ggx = rng.standard_normal(x.shape), rng.standard_normal(x.shape)

    def f(x, gamma, mean, var):
        return F.fixed_batch_normalization(x, gamma, beta, mean, var)

    want = norm.batch_norm_fixed(x, gamma, beta, mean, var, 2e-5)
    np.testing.assert_array_equal(f(x, gamma, mean, var).array, want)
    args = (x, gamma, mean, var)
    ggs = (ggx,) + tuple(rng.standard_normal(2) for _ in range(3))
    gradient_check.check_backward(f, args, gy, rtol=1e-4, atol=1e-4)
    gradient_check.check_double_backward(f, args, gy, ggs, rtol=1e-4, atol=1e-4)
