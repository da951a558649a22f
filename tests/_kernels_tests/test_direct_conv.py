"""The compiled direct convolutions (``chainerlite._kernels.direct_conv``)
against NumPy references, in both versions (AVX2/FMA where the CPU has it,
and the portable C one), and the convolution functions that use them."""

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite._kernels import direct_conv
from chainerlite import gradient_check
from chainerlite.functions.connection import _conv_utils

VERSIONS = [False, True]  # portable


def _valid_correlation(xp, W):
    # y[b, o, y, x] = sum_{c, i, j} xp[b, c, y + i, x + j] W[o, c, i, j]
    kh, kw = W.shape[2:]
    oh, ow = xp.shape[2] - kh + 1, xp.shape[3] - kw + 1
    y = np.zeros((xp.shape[0], W.shape[0], oh, ow))
    for i in range(kh):
        for j in range(kw):
            window = xp[:, :, i : i + oh, j : j + ow].astype(np.float64)
            y += np.einsum('bchw,oc->bohw', window, W[:, :, i, j])
    return y


def _filter_gradient(xp, gy, kh, kw):
    oh, ow = gy.shape[2:]
    gW = np.zeros((gy.shape[1], xp.shape[1], kh, kw))
    for i in range(kh):
        for j in range(kw):
            window = xp[:, :, i : i + oh, j : j + ow].astype(np.float64)
            gW[:, :, i, j] = np.einsum('bchw,bohw->oc', window, gy)
    return gW


def _arrays(n, cin, cout, hp, wp, kh, kw, seed=0):
    rng = np.random.RandomState(seed)
    xp = rng.uniform(-1, 1, (n, cin, hp, wp)).astype(np.float32)
    W = rng.uniform(-1, 1, (cout, cin, kh, kw)).astype(np.float32)
    gy = rng.uniform(-1, 1, (n, cout, hp - kh + 1, wp - kw + 1)).astype(np.float32)
    return xp, W, gy


# (n, cin, cout, hp, wp, kh, kw): output widths below, at and past one
# vector of 8 with a tail, output channels in and out of blocks of 8, every
# filter width the vector gradient specialises (and 9, past them)
SHAPES = [
    (2, 3, 5, 7, 13, 3, 3),
    (1, 1, 1, 3, 3, 3, 3),
    (3, 16, 16, 10, 10, 3, 3),
    (2, 4, 9, 6, 20, 1, 1),
    (2, 2, 17, 5, 12, 2, 2),
    (1, 3, 7, 6, 11, 4, 4),
    (2, 2, 3, 9, 14, 5, 5),
    (1, 2, 4, 8, 15, 3, 6),
    (1, 2, 3, 7, 25, 2, 7),
    (1, 1, 2, 4, 16, 1, 8),
    (1, 2, 2, 4, 17, 2, 9),
]


@pytest.mark.parametrize('portable', VERSIONS)
@pytest.mark.parametrize('shape', SHAPES)
def test_forward_and_filter_gradient_match_reference(shape, portable):
    xp, W, gy = _arrays(*shape)
    bias = np.random.RandomState(1).uniform(-1, 1, W.shape[0]).astype(np.float32)
    wt = np.ascontiguousarray(W.transpose(1, 2, 3, 0))
    y = np.full(gy.shape, np.nan, np.float32)
    direct_conv.direct_conv_2d(xp, wt, bias, y, portable)
    expected = _valid_correlation(xp, W) + bias[:, None, None]
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-5)
    direct_conv.direct_conv_2d(xp, wt, None, y, portable)
    np.testing.assert_allclose(y, expected - bias[:, None, None], rtol=1e-5, atol=1e-5)
    gW = np.full(W.shape, np.nan, np.float32)
    direct_conv.direct_conv_2d_grad_weight(xp, gy, gW, portable)
    np.testing.assert_allclose(
        gW, _filter_gradient(xp, gy, *W.shape[2:]), rtol=1e-5, atol=1e-4
    )


def test_lanes_past_the_outputs_do_not_leak():
    # an infinite last column is seen only by the last tap of the last
    # output column: the vector lanes past the outputs must not add it
    xp, W, gy = _arrays(2, 2, 3, 4, 5, 3, 3)
    xp[..., -1] = np.inf
    wt = np.ascontiguousarray(W.transpose(1, 2, 3, 0))
    y = np.empty(gy.shape, np.float32)
    gW = np.empty(W.shape, np.float32)
    for portable in VERSIONS:
        direct_conv.direct_conv_2d(xp, wt, None, y, portable)
        np.testing.assert_allclose(
            y[..., :-1], _valid_correlation(xp, W)[..., :-1], rtol=1e-5, atol=1e-5
        )
        direct_conv.direct_conv_2d_grad_weight(xp, gy, gW, portable)
        np.testing.assert_allclose(
            gW[..., :-1], _filter_gradient(xp, gy, 3, 3)[..., :-1], rtol=1e-5, atol=1e-5
        )


def test_simd_flag_is_a_bool():
    assert direct_conv.direct_conv_simd() in (True, False)


@pytest.mark.parametrize(
    'call',
    [
        lambda xp, wt, y, gW: direct_conv.direct_conv_2d(
            xp, wt, None, y[:, :, 1:].copy()
        ),
        lambda xp, wt, y, gW: direct_conv.direct_conv_2d(xp, wt[1:].copy(), None, y),
        lambda xp, wt, y, gW: direct_conv.direct_conv_2d(
            xp, wt, np.zeros(3, np.float32), y
        ),
        lambda xp, wt, y, gW: direct_conv.direct_conv_2d_grad_weight(
            xp, y, gW[:, :, :2].copy()
        ),
    ],
)
def test_mismatched_shapes_raise(call):
    xp, W, gy = _arrays(2, 3, 4, 6, 7, 3, 3)
    wt = np.ascontiguousarray(W.transpose(1, 2, 3, 0))
    with pytest.raises(ValueError, match='direct_conv_2d'):
        call(xp, wt, gy, np.empty_like(W))


def test_wrong_dtype_raises():
    xp, W, gy = _arrays(1, 1, 1, 3, 3, 3, 3)
    with pytest.raises(ValueError):
        direct_conv.direct_conv_2d(xp.astype(np.float64), W, None, gy)


# through the functions: (pad, ksize) of float32 stride-1 convolutions


def _reference_conv(x, W, b, pad):
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    return _valid_correlation(xp, W) + b[:, None, None]


@pytest.mark.parametrize('pad,ksize', [(1, 3), (0, 3), (2, 5), (3, 2)])
def test_convolution_2d_float32_stride_1(pad, ksize):
    rng = np.random.RandomState(2)
    x = rng.uniform(-1, 1, (2, 3, 6, 9)).astype(np.float32)
    W = rng.uniform(-1, 1, (5, 3, ksize, ksize)).astype(np.float32)
    b = rng.uniform(-1, 1, 5).astype(np.float32)
    xv, Wv, bv = (chainerlite.Variable(a) for a in (x, W, b))
    y = F.convolution_2d(xv, Wv, bv, pad=pad)
    expected = _reference_conv(x, W, b, pad)
    np.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-5)
    gy = rng.uniform(-1, 1, y.shape).astype(np.float32)
    y.grad = gy
    y.backward()
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    np.testing.assert_allclose(
        Wv.grad, _filter_gradient(xp, gy, ksize, ksize), rtol=1e-4, atol=1e-4
    )
    np.testing.assert_allclose(bv.grad, gy.sum(axis=(0, 2, 3)), rtol=1e-5, atol=1e-5)
    gx = np.zeros(xp.shape)
    oh, ow = gy.shape[2:]
    for i in range(ksize):
        for j in range(ksize):
            gx[:, :, i : i + oh, j : j + ow] += np.einsum(
                'bohw,oc->bchw', gy, W[:, :, i, j]
            )
    gx = gx[:, :, pad : pad + x.shape[2], pad : pad + x.shape[3]]
    np.testing.assert_allclose(xv.grad, gx, rtol=1e-4, atol=1e-4)


def test_direct_path_is_taken_and_agrees_with_blas(monkeypatch):
    if not direct_conv.direct_conv_simd():
        pytest.skip('no AVX2/FMA: the im2col + BLAS path runs')
    rng = np.random.RandomState(3)
    x = rng.uniform(-1, 1, (2, 4, 5, 11)).astype(np.float32)
    W = rng.uniform(-1, 1, (6, 4, 3, 3)).astype(np.float32)
    gy = rng.uniform(-1, 1, (2, 6, 5, 11)).astype(np.float32)

    def run():
        xv, Wv = chainerlite.Variable(x), chainerlite.Variable(W)
        y = F.convolution_2d(xv, Wv, pad=1)
        y.grad = gy
        y.backward()
        d = F.deconvolution_2d(gy, W, pad=1).array
        return y.array, xv.grad, Wv.grad, d

    calls = []
    original = direct_conv.direct_conv_2d
    monkeypatch.setattr(
        direct_conv, 'direct_conv_2d', lambda *a: calls.append(1) or original(*a)
    )
    direct = run()
    assert len(calls) == 3  # forward, input gradient, deconvolution
    monkeypatch.setattr(_conv_utils, '_DIRECT_SIMD', False)
    for got, blas in zip(direct, run()):
        np.testing.assert_allclose(got, blas, rtol=1e-5, atol=1e-5)


def test_check_backward_on_the_direct_path():
    # float32 throughout, so that every product runs the direct kernels
    rng = np.random.RandomState(4)
    x = rng.uniform(-1, 1, (2, 2, 4, 5)).astype(np.float32)
    W = rng.uniform(-1, 1, (3, 2, 3, 3)).astype(np.float32)
    b = rng.uniform(-1, 1, 3).astype(np.float32)
    gy = rng.uniform(-1, 1, (2, 3, 4, 5)).astype(np.float32)
    ggs = [rng.uniform(-1, 1, a.shape).astype(np.float32) for a in (x, W, b)]
    gradient_check.check_backward(
        lambda *a: F.convolution_2d(*a, pad=1), (x, W, b), gy, atol=1e-2, rtol=1e-2
    )
    gradient_check.check_double_backward(
        lambda *a: F.convolution_2d(*a, pad=1), (x, W, b), gy, ggs, atol=1e-2, rtol=1e-2
    )
