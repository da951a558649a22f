"""The compiled direct convolutions (``chainerlite._kernels.direct_conv``)
against NumPy references, in both versions (AVX2/FMA where the CPU has it,
and the portable C one), and the convolution functions that use them."""

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite._kernels import direct_conv
from chainerlite import gradient_check

# portable (the plain C kernels); the AVX2 ones where the CPU has them
VERSIONS = [True] + ([False] if direct_conv.direct_conv_simd() else [])
# stride, dilate, groups of the convolutions the kernels take
ONE = ((1, 1), (1, 1), 1)


def _conv(x, W, b, pad=(0, 0), portable=False, cache=None):
    stride, dilate, groups = ONE
    return direct_conv.conv2d(x, W, b, stride, pad, dilate, groups, cache, portable)


def _transpose(x, W, dims, pad=(0, 0), portable=False):
    stride, dilate, groups = ONE
    return direct_conv.conv2d_transpose(
        x, W, dims, stride, pad, dilate, groups, portable
    )


def _grad_weight(x, gy, ksize, pad=(0, 0), portable=False, cache=None):
    stride, dilate, groups = ONE
    return direct_conv.conv2d_grad_weight(
        x, gy, ksize, stride, pad, dilate, groups, cache, portable
    )


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
# filter width the vector gradient specialises (and 9, past them: declined)
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
    # unpadded images (pad 0): the kernels read the array itself
    xp, W, gy = _arrays(*shape)
    bias = np.random.RandomState(1).uniform(-1, 1, W.shape[0]).astype(np.float32)
    y = _conv(xp, W, bias, portable=portable)
    if W.shape[3] > direct_conv.MAX_KW:  # declined: a row too wide
        assert (
            y is None and _grad_weight(xp, gy, W.shape[2:], portable=portable) is None
        )
        return
    expected = _valid_correlation(xp, W) + bias[:, None, None]
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-5)
    y = _conv(xp, W, None, portable=portable)
    np.testing.assert_allclose(y, expected - bias[:, None, None], rtol=1e-5, atol=1e-5)
    gW = _grad_weight(xp, gy, W.shape[2:], portable=portable)
    np.testing.assert_allclose(
        gW, _filter_gradient(xp, gy, *W.shape[2:]), rtol=1e-5, atol=1e-4
    )


@pytest.mark.parametrize('portable', VERSIONS)
@pytest.mark.parametrize('pad', [(1, 1), (2, 0), (0, 3), (4, 1)])
def test_padding_inside_matches_padded_images(pad, portable):
    # the kernels pad the images themselves: the same bits as the padded
    # images given with pad 0; the transpose is the gradient of the input
    x, W, gy = _arrays(2, 3, 5, 6, 9, 3, 3)
    padded = np.pad(x, ((0, 0), (0, 0), (pad[0],) * 2, (pad[1],) * 2))
    b = np.random.RandomState(1).uniform(-1, 1, 5).astype(np.float32)
    y = _conv(x, W, b, pad, portable)
    np.testing.assert_array_equal(y, _conv(padded, W, b, portable=portable))
    gy = np.random.RandomState(2).uniform(-1, 1, y.shape).astype(np.float32)
    np.testing.assert_array_equal(
        _grad_weight(x, gy, (3, 3), pad, portable),
        _grad_weight(padded, gy, (3, 3), portable=portable),
    )
    if max(pad) <= 2:  # a padding past k - 1 has no transposed kernel
        gx = np.zeros(padded.shape)
        for i in range(3):
            for j in range(3):
                gx[:, :, i : i + y.shape[2], j : j + y.shape[3]] += np.einsum(
                    'bohw,oc->bchw', gy, W[:, :, i, j]
                )
        gx = gx[:, :, pad[0] : pad[0] + 6, pad[1] : pad[1] + 9]
        got = _transpose(gy, W, (6, 9), pad, portable)
        np.testing.assert_allclose(got, gx, rtol=1e-4, atol=1e-4)


def test_cache_keeps_the_padded_images_of_one_input():
    x, W, _ = _arrays(2, 3, 4, 6, 7, 3, 3)
    cache = []
    y = _conv(x, W, None, (1, 1), cache=cache)
    kept = cache[2]
    assert cache[0] is x and kept.shape == (2, 3, 8, 9)
    gy = np.random.RandomState(1).uniform(-1, 1, y.shape).astype(np.float32)
    gW = _grad_weight(x, gy, (3, 3), (1, 1), cache=cache)
    assert cache[2] is kept
    np.testing.assert_array_equal(gW, _grad_weight(x, gy, (3, 3), (1, 1)))
    # another array (even of the same shape) is padded anew
    other = -x
    gW = _grad_weight(other, gy, (3, 3), (1, 1), cache=cache)
    assert cache[0] is other and cache[2] is not kept
    np.testing.assert_array_equal(gW, _grad_weight(other, gy, (3, 3), (1, 1)))
    np.testing.assert_allclose(
        gW, -_filter_gradient(kept, gy, 3, 3), rtol=1e-5, atol=1e-5
    )


def test_inputs_of_any_layout_give_the_same_bits():
    # strided, reversed, misaligned inputs are copied, not refused
    x, W, gy = _arrays(2, 3, 4, 6, 7, 3, 3)
    raw = np.zeros(x.size * 4 + 1, np.uint8)
    misaligned = raw[1:].view(np.float32).reshape(x.shape)
    misaligned[...] = x
    fortran_w = np.asfortranarray(W)
    b = np.arange(4, dtype=np.float32)
    for pad in [(0, 0), (1, 1)]:
        y = _conv(x, W, b, pad)
        gy = np.ones_like(y)
        gW = _grad_weight(x, gy, (3, 3), pad)
        assert y is not None and gW is not None
        for xs in [misaligned, x[:, :, ::-1, ::-1].copy()[:, :, ::-1, ::-1]]:
            np.testing.assert_array_equal(_conv(xs, fortran_w, b[::-1][::-1], pad), y)
            np.testing.assert_array_equal(
                _grad_weight(xs, np.asfortranarray(gy), (3, 3), pad), gW
            )


def test_lanes_past_the_outputs_do_not_leak():
    # an infinite last column is seen only by the last tap of the last
    # output column: the vector lanes past the outputs must not add it
    xp, W, gy = _arrays(2, 2, 3, 4, 5, 3, 3)
    xp[..., -1] = np.inf
    for portable in VERSIONS:
        y = _conv(xp, W, None, portable=portable)
        np.testing.assert_allclose(
            y[..., :-1], _valid_correlation(xp, W)[..., :-1], rtol=1e-5, atol=1e-5
        )
        gW = _grad_weight(xp, gy, (3, 3), portable=portable)
        np.testing.assert_allclose(
            gW[..., :-1], _filter_gradient(xp, gy, 3, 3)[..., :-1], rtol=1e-5, atol=1e-5
        )


def test_simd_flag_is_a_bool():
    assert direct_conv.direct_conv_simd() in (True, False)


def _declines():
    # (name, entry, arguments): convolutions the kernels do not take
    x, W, gy = _arrays(2, 3, 4, 6, 7, 3, 3)
    y = np.ones((2, 4, 6, 7), np.float32)
    b = np.ones(4, np.float32)
    one = ((1, 1), (1, 1), (1, 1), 1)  # stride, pad, dilate, groups
    pad0 = ((1, 1), (0, 0), (1, 1), 1)
    f32 = np.float32
    wide = _arrays(1, 1, 1, 4, 12, 1, direct_conv.MAX_KW + 1)[1]
    many = np.ones((64, 64, 3, 3), f32)  # past MAX_WEIGHTS
    conv = {
        'float64 images': (x.astype(np.float64), W, b, one),
        'float64 filters': (x, W.astype(np.float64), b, one),
        'byte-swapped images': (x.astype('>f4'), W, b, one),
        'a list': (x.tolist(), W, b, one),
        'no images': (x[:0], W, b, one),
        'channels differ': (x[:, :2], W, b, one),
        '3-d images': (x[..., None], W[..., None], b, ((1,) * 3,) * 3 + (1,)),
        'stride 2': (x, W, b, ((2, 1),) + one[1:]),
        'dilate 2': (x, W, b, one[:2] + ((1, 2), 1)),
        'two groups': (x, W, b, one[:3] + (2,)),
        'negative pad': (x, W, b, ((1, 1), (-1, 1), (1, 1), 1)),
        'pad as a list': (x, W, b, ((1, 1), [1, 1], (1, 1), 1)),
        'float64 bias': (x, W, b.astype(np.float64), one),
        'bias too short': (x, W, b[:3], one),
        'row too wide': (x, np.ones((4, 3, 1, 9), f32), None, one),
        'too many weights': (np.ones((1, 64, 4, 4), f32), many, None, one),
        'no output': (x, np.ones((4, 3, 9, 3), f32), None, pad0),
    }
    transpose = {
        'float64 filters': (y, W.astype(np.float64), (6, 7), one),
        'dims not spanned': (y, W, (7, 7), one),
        'pad past k - 1': (y, W, (2, 3), ((1, 1), (3, 3), (1, 1), 1)),
        'stride 2': (y, W, (6, 7), ((2, 2),) + one[1:]),
        'channels differ': (y[:, :3], W, (6, 7), one),
        'row too wide': (np.ones((1, 1, 4, 4), f32), wide, (4, 12), pad0),
    }
    grad_weight = {
        'float64 gradient': (x, y.astype(np.float64), (3, 3), one),
        'gradient of another shape': (x, y[:, :, 1:], (3, 3), one),
        'ksize as a list': (x, y, [3, 3], one),
        'row too wide': (x, np.ones((2, 4, 6, 1), f32), (1, 9), pad0[:1] + one[1:]),
        'dilate 2': (x, y, (3, 3), one[:2] + ((2, 2), 1)),
    }
    return [
        (entry.__name__ + ': ' + name, entry, args[:3] + args[3])
        for entry, cases in [
            (direct_conv.conv2d, conv),
            (direct_conv.conv2d_transpose, transpose),
            (direct_conv.conv2d_grad_weight, grad_weight),
        ]
        for name, args in cases.items()
    ]


DECLINES = _declines()


@pytest.mark.parametrize('portable', VERSIONS)
@pytest.mark.parametrize('name, entry, args', DECLINES, ids=[c[0] for c in DECLINES])
def test_declines_leave_the_cache_untouched(name, entry, args, portable):
    extra = () if entry is direct_conv.conv2d_transpose else ([],)
    assert entry(*args, *extra, portable=portable) is None
    if extra:
        assert extra[0] == []


def test_declines_without_simd_unless_portable():
    x, W, gy = _arrays(1, 2, 2, 5, 5, 3, 3)
    y = _conv(x, W, None)
    assert (y is None) == (not direct_conv.direct_conv_simd())
    assert _conv(x, W, None, portable=True) is not None


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

    entries = ('conv2d', 'conv2d_transpose', 'conv2d_grad_weight')
    computed = []

    def counted(entry):
        def call(*args, **kwargs):
            out = entry(*args, **kwargs)
            computed.append(entry.__name__ if out is not None else None)
            return out

        return call

    for name in entries:
        monkeypatch.setattr(direct_conv, name, counted(getattr(direct_conv, name)))
    direct = run()
    # forward; input gradient and deconvolution; filter gradient
    assert sorted(computed) == sorted(entries + ('conv2d_transpose',))
    for name in entries:
        monkeypatch.setattr(direct_conv, name, lambda *args, **kwargs: None)
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
