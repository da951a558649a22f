import numpy
import pytest

import chainerlite
import chainerlite.links as L
from chainerlite import gradient_check
from chainerlite import initializers
from chainerlite.testing import attr


def _conv_reference(x, W, b, stride, pad, dilate, groups):
    n, _, h, w = x.shape
    out_c, c_g, kh, kw = W.shape
    (sy, sx), (ph, pw), (dy, dx) = stride, pad, dilate
    xp = numpy.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    oh = (h + 2 * ph - (kh - 1) * dy - 1) // sy + 1
    ow = (w + 2 * pw - (kw - 1) * dx - 1) // sx + 1
    y = numpy.zeros((n, out_c, oh, ow))
    o_g = out_c // groups
    for g in range(groups):
        xg = xp[:, g * c_g : (g + 1) * c_g]
        Wg = W[g * o_g : (g + 1) * o_g]
        for i in range(kh):
            for j in range(kw):
                patch = xg[
                    :,
                    :,
                    i * dy : i * dy + sy * (oh - 1) + 1 : sy,
                    j * dx : j * dx + sx * (ow - 1) + 1 : sx,
                ]
                y[:, g * o_g : (g + 1) * o_g] += numpy.einsum(
                    'nchw,oc->nohw', patch, Wg[:, :, i, j]
                )
    if b is not None:
        y += b.reshape(1, -1, 1, 1)
    return y


CASES = [
    dict(ksize=3, stride=1, pad=0, dilate=1, groups=1, nobias=False),
    dict(ksize=(2, 3), stride=(2, 1), pad=(1, 0), dilate=1, groups=1, nobias=True),
    dict(ksize=2, stride=1, pad=1, dilate=2, groups=2, nobias=False),
]


@pytest.mark.parametrize('case', CASES)
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_forward_matches_reference(case, dtype):
    with chainerlite.using_config('dtype', dtype):
        conv = L.Convolution2D(
            4,
            6,
            case['ksize'],
            stride=case['stride'],
            pad=case['pad'],
            nobias=case['nobias'],
            dilate=case['dilate'],
            groups=case['groups'],
            initial_bias=initializers.Normal(),
        )
    assert conv.W.dtype == dtype
    x = numpy.random.uniform(-1, 1, (2, 4, 6, 5)).astype(dtype)
    y = conv(x)
    b = None if conv.b is None else conv.b.array
    expected = _conv_reference(
        x, conv.W.array, b, conv.stride, conv.pad, conv.dilate, conv.groups
    )
    assert y.dtype == dtype
    tol = 1e-5 if dtype == numpy.float32 else 1e-12
    numpy.testing.assert_allclose(y.array, expected, rtol=tol, atol=tol)


@pytest.mark.parametrize('case', CASES)
def test_parameter_gradients(case):
    conv = L.Convolution2D(
        4,
        6,
        case['ksize'],
        stride=case['stride'],
        pad=case['pad'],
        nobias=case['nobias'],
        dilate=case['dilate'],
        groups=case['groups'],
    )
    x = numpy.random.uniform(-1, 1, (2, 4, 5, 5)).astype(numpy.float32)
    y_shape = conv(x).shape
    gy = numpy.random.uniform(-1, 1, y_shape).astype(numpy.float32)
    params = [p for p in (conv.W, conv.b) if p is not None]
    gradient_check.check_backward(
        conv, x, gy, params=params, dtype=numpy.float64, atol=1e-3, rtol=1e-3
    )


def test_parameters():
    conv = L.Convolution2D(3, 4, 2, groups=1)
    assert conv.W.shape == (4, 3, 2, 2)
    assert conv.b.shape == (4,)
    numpy.testing.assert_array_equal(conv.b.array, numpy.zeros(4))
    assert (conv.stride, conv.pad, conv.dilate) == ((1, 1), (0, 0), (1, 1))
    assert [name for name, _ in conv.namedparams()] == ['/W', '/b']
    assert L.Convolution2D(4, 6, 3, groups=2).W.shape == (6, 2, 3, 3)


def test_initializers():
    W = numpy.arange(24, dtype=numpy.float32).reshape(4, 3, 2, 1)
    conv = L.Convolution2D(3, 4, (2, 1), initialW=W, initial_bias=2.0)
    numpy.testing.assert_array_equal(conv.W.array, W)
    numpy.testing.assert_array_equal(conv.b.array, numpy.full(4, 2.0))


@pytest.mark.parametrize('args', [(None, 5, 3), (5, 3)])
def test_lazy_in_channels(args):
    conv = L.Convolution2D(*args)
    assert conv.out_channels == 5 and conv.ksize == 3
    assert conv.W.array is None
    assert conv.b.shape == (5,)
    y = conv(numpy.ones((1, 2, 4, 4), numpy.float32))
    assert conv.W.shape == (5, 2, 3, 3)
    assert y.shape == (1, 5, 2, 2)


def test_lazy_in_channels_with_groups():
    conv = L.Convolution2D(4, 3, groups=2)
    conv(numpy.ones((1, 6, 4, 4), numpy.float32))
    assert conv.W.shape == (4, 3, 3, 3)
    conv = L.Convolution2D(4, 3, groups=2)
    with pytest.raises(ValueError, match='input channels'):
        conv(numpy.ones((1, 5, 4, 4), numpy.float32))


def test_groups_must_divide_channels():
    with pytest.raises(ValueError, match='output channels'):
        L.Convolution2D(4, 5, 3, groups=2)
    with pytest.raises(ValueError, match='input channels'):
        L.Convolution2D(3, 4, 3, groups=2)


class _ChannelShard(L.Convolution2D):
    # Keeps the total input channels in ``in_channels`` and gives the base
    # class only its share, as ChainerMN's channel-parallel convolution
    # example does; the base class must not overwrite the attribute.
    def __init__(self, in_channels, out_channels, ksize, share):
        self.in_channels = in_channels
        super().__init__(share, out_channels, ksize)

    def forward(self, x):
        return super().forward(x[:, : self.in_channels - 1])


@pytest.mark.parametrize('cls', [L.Convolution2D, L.ConvolutionND])
def test_in_channels_attribute_as_chainers(cls):
    # Chainer's Convolution2D keeps in_channels, its ConvolutionND has none
    if cls is L.ConvolutionND:
        assert not hasattr(cls(2, 3, 4, 1), 'in_channels')
        return
    assert cls(3, 4, 1).in_channels == 3
    shard = _ChannelShard(3, 4, 1, share=2)
    assert shard.in_channels == 3
    assert shard(numpy.ones((1, 3, 2, 2), numpy.float32)).shape == (1, 4, 2, 2)


def test_serialization_round_trip(roundtrip):
    src = L.Convolution2D(2, 3, 2)
    dst = L.Convolution2D(3, 2)
    saved = roundtrip(src, dst)
    assert sorted(saved) == ['W', 'b']
    numpy.testing.assert_array_equal(dst.W.array, src.W.array)
    x = numpy.random.uniform(-1, 1, (1, 2, 3, 3)).astype(numpy.float32)
    numpy.testing.assert_array_equal(dst(x).array, src(x).array)


@attr.gpu
def test_lazy_on_gpu():
    import cupy

    conv = L.Convolution2D(3, 2)
    conv.to_device('@cupy:0')
    x = numpy.random.uniform(-1, 1, (1, 2, 4, 4)).astype(numpy.float32)
    y = conv(cupy.asarray(x))
    assert isinstance(conv.W.array, cupy.ndarray)
    expected = _conv_reference(
        x,
        cupy.asnumpy(conv.W.array),
        cupy.asnumpy(conv.b.array),
        (1, 1),
        (0, 0),
        (1, 1),
        1,
    )
    numpy.testing.assert_allclose(cupy.asnumpy(y.array), expected, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize('cls, out_hw', [(L.Convolution2D, 3), (L.Deconvolution2D, 9)])
def test_empty_batch(cls, out_hw):
    link = cls(None, 4, 3, stride=2, pad=1, groups=2)
    x = chainerlite.Variable(numpy.zeros((0, 2, 5, 5), numpy.float32))
    y = link(x)
    assert y.shape == (0, 4, out_hw, out_hw)
    link.cleargrads()  # the gradients start as NaN, as in Chainer
    y.grad = numpy.ones(y.shape, numpy.float32)
    y.backward()
    assert x.grad.shape == x.shape
    numpy.testing.assert_array_equal(link.W.grad, numpy.zeros(link.W.shape))
    numpy.testing.assert_array_equal(link.b.grad, numpy.zeros(4))


def test_from_params_copies_filter_and_bias():
    W = numpy.random.uniform(-1, 1, (6, 2, 3, 2)).astype(numpy.float32)
    b = numpy.random.uniform(-1, 1, 6).astype(numpy.float32)
    link = L.Convolution2D.from_params(
        chainerlite.Parameter(W), b, stride=2, pad=1, groups=2
    )
    assert isinstance(link, L.Convolution2D)
    assert link.channels_of(link.W.shape, link.groups) == (4, 6)
    assert link.stride == (2, 2) and link.pad == (1, 1)
    numpy.testing.assert_array_equal(link.W.array, W)
    numpy.testing.assert_array_equal(link.b.array, b)
    W[...] = 0
    assert link.W.array.any()


def test_from_params_without_bias():
    W = numpy.ones((3, 2, 1, 1), numpy.float32)
    assert L.Convolution2D.from_params(W).b is None
    b = numpy.ones(3, numpy.float32)
    assert L.Convolution2D.from_params(W, b, nobias=True).b is None


@pytest.mark.parametrize('shape', [(1, 1), (1, 1, 2, 2, 2)])
def test_inferring_in_channels_needs_4_axes(shape):
    # ValueError, as Chainer 7.8.1's unpacking of (n, c, h, w)
    link = L.Convolution2D(2, 1)
    with pytest.raises(ValueError, match='Convolution2D: in_channels is inferred'):
        link(numpy.zeros(shape, numpy.float32))
    assert link.W.array is None


def test_text_form_and_in_channels_as_given():
    conv = L.Convolution2D(4, 2, ksize=(2, 3), stride=2, dilate=2, groups=2)
    assert conv.in_channels == 4
    assert str(conv) == (
        'Convolution2D(in_channels=4, out_channels=2, ksize=(2, 3), '
        'stride=(2, 2), pad=(0, 0), nobias=False, dilate=(2, 2), groups=2)'
    )
    # the short form infers the channels; in_channels stays None, as in
    # Chainer, after the first call too
    lazy = L.Convolution2D(3, 1, nobias=True)
    lazy(numpy.zeros((1, 5, 2, 2), numpy.float32))
    assert lazy.in_channels is None and lazy.W.shape == (3, 5, 1, 1)
    assert str(lazy).startswith(
        'Convolution2D(in_channels=None, out_channels=3, ksize=1'
    )
    assert 'nobias=True' in str(lazy)
