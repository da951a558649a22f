import numpy

import chainerlite.functions as F
import chainerlite.links as L
from chainerlite import gradient_check


def test_starts_as_a_convolution():
    link = L.DeformableConvolution2D(None, 2, 3, stride=2, pad=1)
    x = numpy.random.uniform(-1, 1, (2, 3, 5, 5)).astype(numpy.float32)
    y = link(x)
    assert link.offset_conv.W.shape == (18, 3, 3, 3)
    numpy.testing.assert_allclose(
        y.array,
        F.convolution_2d(x, link.deform_conv.W, link.deform_conv.b, 2, 1).array,
        atol=1e-6,
    )


def test_backward():
    link = L.DeformableConvolution2D(
        2, 2, 2, offset_initialW=0.1, offset_initial_bias=0.3
    )
    x = numpy.random.uniform(-1, 1, (1, 2, 3, 3))
    link.to_device('@numpy')
    for p in link.params():
        p.array = p.array.astype(numpy.float64)
    gy = numpy.random.uniform(-1, 1, (1, 2, 2, 2))
    gradient_check.check_backward(
        link, x, gy, tuple(link.params()), eps=1e-4, atol=1e-4, rtol=1e-4
    )
