import pickle

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
import chainerlite.links as L
from chainerlite import gradient_check


@pytest.mark.parametrize('ndim', [1, 2, 3])
def test_forward_and_backward(ndim):
    link = L.ConvolutionND(
        ndim, 3, 4, 2, stride=2, pad=1, initial_bias=chainerlite.initializers.Uniform(1)
    )
    assert link.W.shape == (4, 3) + (2,) * ndim
    x = numpy.random.uniform(-1, 1, (2, 3) + (3,) * ndim).astype(numpy.float32)
    y = link(x)
    numpy.testing.assert_allclose(
        y.array, F.convolution_nd(x, link.W, link.b, 2, 1).array
    )
    gradient_check.check_backward(
        link,
        x,
        numpy.random.uniform(-1, 1, y.shape).astype(numpy.float32),
        (link.W, link.b),
        dtype=numpy.float64,
        atol=1e-4,
        rtol=1e-3,
    )


def test_lazy_in_channels_and_groups():
    link = L.ConvolutionND(2, 4, 3, groups=2)
    y = link(numpy.zeros((1, 6, 4, 4), numpy.float32))
    assert link.W.shape == (4, 3, 3, 3)
    assert y.shape == (1, 4, 2, 2)


def test_fixed_rank_links():
    x = numpy.random.uniform(-1, 1, (2, 3, 4)).astype(numpy.float32)
    numpy.testing.assert_array_equal(
        L.Convolution1D(3, 2, 2, initialW=1)(x).array,
        L.ConvolutionND(1, 3, 2, 2, initialW=1)(x).array,
    )
    assert L.Convolution3D(3, 2, 2).W.shape == (2, 3, 2, 2, 2)


def test_from_params():
    W = numpy.random.uniform(-1, 1, (4, 1, 2, 3)).astype(numpy.float32)
    b = numpy.random.uniform(-1, 1, 4).astype(numpy.float32)
    link = L.ConvolutionND.from_params(W, b, stride=2, groups=2)
    numpy.testing.assert_array_equal(link.W.array, W)
    numpy.testing.assert_array_equal(link.b.array, b)
    assert link.stride == (2, 2) and link.groups == 2


@pytest.mark.parametrize('cls, ndim', [(L.Convolution1D, 1), (L.Convolution3D, 3)])
def test_from_params_of_fixed_rank_links(cls, ndim):
    W = numpy.random.uniform(-1, 1, (2, 3) + (2,) * ndim).astype(numpy.float32)
    link = cls.from_params(W)
    assert type(link) is cls and link.b is None
    assert link.channels_of(link.W.shape, 1) == (3, 2) and link.ndim == ndim
    numpy.testing.assert_array_equal(link.W.array, W)


def test_pickle_round_trip():
    link = L.ConvolutionND(1, 2, 3, 2)
    x = numpy.random.uniform(-1, 1, (1, 2, 5)).astype(numpy.float32)
    copy = pickle.loads(pickle.dumps(link))
    numpy.testing.assert_array_equal(copy(x).array, link(x).array)


def test_invalid_arguments():
    # built as in Chainer 7.8.1; the function refuses the stride at the call
    link = L.ConvolutionND(2, 3, 4, 2, stride=(1, 1, 1))
    with pytest.raises(ValueError, match='convolution_nd: stride') as info:
        link(numpy.zeros((1, 3, 4, 4), numpy.float32))
    assert isinstance(info.value, AssertionError)
    with pytest.raises(ValueError, match='ConvolutionND: the number of input'):
        L.ConvolutionND(2, 3, 4, 2, groups=2)


@pytest.mark.parametrize(
    'make, x_shape',
    [
        (lambda: L.ConvolutionND(1, None, 2, 3, groups=2), (1, 3, 5)),
        (lambda: L.ConvolutionND(1, 3, 3, groups=2), (1, 3, 5)),
        (lambda: L.Deconvolution1D(None, 3, 3, groups=2), (1, 4, 5)),
    ],
)
def test_lazy_groups_not_dividing_channels_raises_at_the_call(make, x_shape):
    # Chainer 7.8.1 checks groups when it makes W: at the first call here
    link = make()
    with pytest.raises(ValueError, match='must be divisible by the number of groups'):
        link(numpy.zeros(x_shape, numpy.float32))
    assert link.W.array is None


@pytest.mark.parametrize('groups, error', [(0, ZeroDivisionError), (-1, ValueError)])
def test_lazy_bad_groups_raises_at_the_call(groups, error):
    link = L.ConvolutionND(2, 3, 3, groups=groups)  # in_channels inferred
    with pytest.raises(error, match='ConvolutionND: groups must be a positive'):
        link(numpy.zeros((1, 3, 5, 5), numpy.float32))
    assert link.W.array is None


@pytest.mark.parametrize(
    'make',
    [
        lambda: L.Convolution1D(2, 2, 3, stride=-1, groups=0),
        lambda: L.Deconvolution3D(4, 4, 3, dilate=0, groups=0),
        lambda: L.ConvolutionND(2, 2, 2, 3, groups=0),
    ],
)
def test_zero_groups_is_checked_first_and_is_zero_division_too(make):
    # Chainer 7.8.1 divides by groups before it looks at the others
    with pytest.raises(ValueError, match='groups must be a positive int') as info:
        make()
    assert isinstance(info.value, ZeroDivisionError)


@pytest.mark.parametrize('ksize', [0, (3, 0)])
def test_zero_ksize_is_also_zero_division_error(ksize):
    # Chainer 7.8.1 divides by it making W
    with pytest.raises(ValueError, match='ConvolutionND: ksize must be') as info:
        L.ConvolutionND(2, 1, 3, ksize)
    assert isinstance(info.value, ZeroDivisionError)


@pytest.mark.parametrize(
    'make, x_shape, match, also',
    [
        (lambda: L.ConvolutionND(2, 1, 3, 3, stride=0), 4, 'stride', ZeroDivisionError),
        (lambda: L.Convolution1D(1, 3, 3, stride=-1), 3, 'stride', AssertionError),
        (lambda: L.Deconvolution1D(4, 4, 2, stride=(-1,)), 3, 'stride', RuntimeError),
        (
            lambda: L.ConvolutionND(2, 1, 3, 3, stride=(1, -2)),
            4,
            'stride',
            RuntimeError,
        ),
        (lambda: L.Convolution3D(1, 3, 3, pad=-1), 5, 'pad', ValueError),
        # Chainer's deconvolution asserts on the output length it computes
        (
            lambda: L.Deconvolution1D(2, 4, 1, stride=0, pad=2),
            3,
            'stride',
            AssertionError,
        ),
        (
            lambda: L.Deconvolution1D(2, 4, 1, stride=0, pad=2),
            3,
            'stride',
            ZeroDivisionError,
        ),
        (lambda: L.DeconvolutionND(2, 1, 3, 3, dilate=-1), 4, 'dilate', ValueError),
    ],
)
def test_window_arguments_are_checked_at_the_call(make, x_shape, match, also):
    # Chainer 7.8.1 builds such a link and fails (or computes from a
    # meaningless argument) only when it is called
    link = make()
    channels = link.W.shape[0 if isinstance(link, L.DeconvolutionND) else 1]
    x = numpy.zeros((1, channels) + (5,) * (x_shape - 2), numpy.float32)
    with pytest.raises(ValueError, match='convolution_nd: ' + match) as info:
        link(x)
    assert isinstance(info.value, also)


@pytest.mark.parametrize(
    'make',
    [lambda: L.Convolution1D(None, 2, 1), lambda: L.DilatedConvolution2D(None, 2, 3)],
)
def test_inferring_in_channels_from_a_1d_input_is_index_error(make):
    # Chainer 7.8.1 reads x.shape[1]; chainerlite names the link
    link = make()
    with pytest.raises(IndexError, match='in_channels is inferred from axis 1') as info:
        link(numpy.zeros(3, numpy.float32))
    assert isinstance(info.value, ValueError)
    assert link.W.array is None
