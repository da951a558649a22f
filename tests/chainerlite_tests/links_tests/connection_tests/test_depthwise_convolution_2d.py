import numpy

import chainerlite.functions as F
import chainerlite.links as L
from chainerlite import gradient_check


def test_forward_backward_and_lazy_shapes():
    link = L.DepthwiseConvolution2D(None, 2, 3, stride=2, pad=1, initial_bias=0.25)
    x = numpy.random.uniform(-1, 1, (2, 3, 4, 3)).astype(numpy.float32)
    y = link(x)
    assert link.W.shape == (2, 3, 3, 3) and link.b.shape == (6,)
    numpy.testing.assert_allclose(
        y.array, F.depthwise_convolution_2d(x, link.W, link.b, 2, 1).array
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
