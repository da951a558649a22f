import numpy
import pytest

import chainerlite.functions as F
import chainerlite.links as L
from chainerlite import gradient_check


@pytest.mark.parametrize('ndim', [1, 3])
def test_forward_and_backward(ndim):
    link = L.DeconvolutionND(ndim, 3, 4, 2, stride=2, pad=1, initial_bias=0.5)
    assert link.W.shape == (3, 4) + (2,) * ndim
    x = numpy.random.uniform(-1, 1, (2, 3) + (3,) * ndim).astype(numpy.float32)
    y = link(x)
    assert y.shape == (2, 4) + (4,) * ndim
    numpy.testing.assert_allclose(
        y.array, F.deconvolution_nd(x, link.W, link.b, 2, 1).array
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


def test_lazy_in_channels_outsize_and_nobias():
    link = L.DeconvolutionND(1, 4, 3, stride=2, outsize=(8,), nobias=True, groups=2)
    assert link.b is None
    y = link(numpy.zeros((1, 6, 3), numpy.float32))
    assert link.W.shape == (6, 2, 3)
    assert y.shape == (1, 4, 8)


def test_fixed_rank_links():
    x = numpy.random.uniform(-1, 1, (2, 3, 2, 2, 2)).astype(numpy.float32)
    numpy.testing.assert_array_equal(
        L.Deconvolution3D(3, 2, 2, initialW=1)(x).array,
        L.DeconvolutionND(3, 3, 2, 2, initialW=1)(x).array,
    )
    assert L.Deconvolution1D(3, 2, 4).W.shape == (3, 2, 4)


@pytest.mark.parametrize(
    'cls, ndim',
    [(L.DeconvolutionND, 3), (L.Deconvolution1D, 1), (L.Deconvolution2D, 2)],
)
def test_from_params(cls, ndim):
    # A deconvolution filter is (c_I, c_O / groups, k...).
    W = numpy.random.uniform(-1, 1, (4, 3) + (2,) * ndim).astype(numpy.float32)
    b = numpy.random.uniform(-1, 1, 6).astype(numpy.float32)
    link = cls.from_params(W, b, stride=2, groups=2)
    assert type(link) is cls
    assert link.channels_of(link.W.shape, link.groups) == (4, 6)
    numpy.testing.assert_array_equal(link.W.array, W)
    numpy.testing.assert_array_equal(link.b.array, b)
    x = numpy.random.uniform(-1, 1, (1, 4) + (3,) * ndim).astype(numpy.float32)
    expected = F.deconvolution_nd(x, W, b, stride=2, groups=2).array
    numpy.testing.assert_allclose(link(x).array, expected, rtol=1e-6)
