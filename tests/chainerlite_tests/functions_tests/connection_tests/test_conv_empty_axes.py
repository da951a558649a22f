"""Convolutions and deconvolutions whose arrays have an empty axis (no
images, no input or output channels, no pixels) give empty results and
gradients of the right shapes, as Chainer does, forward and backward."""

import itertools

import numpy
import pytest

import chainerlite
import chainerlite.functions as F

# (batch, input channels, output channels, image side, groups)
SHAPES = [
    (n, c_in, c_out, side, groups)
    for n, c_in, c_out, side, groups in itertools.product(
        (0, 2), (0, 2), (0, 2), (1, 4), (1, 2)
    )
    if 0 in (n, c_in, c_out) and c_in % groups == 0 and c_out % groups == 0
]


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('n, c_in, c_out, side, groups', SHAPES)
@pytest.mark.parametrize(
    'function',
    [F.convolution_2d, F.convolution_nd, F.deconvolution_2d, F.deconvolution_nd],
)
def test_an_empty_axis(function, n, c_in, c_out, side, groups, dtype):
    transposed = function in (F.deconvolution_2d, F.deconvolution_nd)
    w_shape = (c_in, c_out // groups) if transposed else (c_out, c_in // groups)
    x = chainerlite.Variable(numpy.ones((n, c_in, side, side), dtype))
    W = chainerlite.Variable(numpy.ones(w_shape + (2, 2), dtype))
    b = chainerlite.Variable(numpy.ones(c_out, dtype))
    kwargs = {'groups': groups} if transposed else {'groups': groups, 'pad': 1}
    y = function(x, W, b, **kwargs)
    assert y.shape == (n, c_out, side + 1, side + 1)
    y.grad = numpy.ones(y.shape, dtype)
    y.backward()
    assert x.grad.shape == x.shape and W.grad.shape == W.shape
    # every output element holds the bias once and every weight tap that
    # meets the image (side ** 2 pixels an image for the padded convolution,
    # each input pixel reaching 4 taps of c_out / groups channels for the
    # deconvolution)
    numpy.testing.assert_array_equal(b.grad, n * (side + 1) ** 2)
    if transposed:
        numpy.testing.assert_array_equal(x.grad, 4 * c_out // groups)
    else:
        numpy.testing.assert_array_equal(W.grad, n * side * side)
