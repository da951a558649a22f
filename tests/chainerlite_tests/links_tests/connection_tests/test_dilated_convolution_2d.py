import numpy

import chainerlite.functions as F
import chainerlite.links as L


def test_forward_and_lazy_shape():
    link = L.DilatedConvolution2D(4, 3, stride=2, pad=2, dilate=2)
    x = numpy.random.uniform(-1, 1, (2, 3, 6, 5)).astype(numpy.float32)
    y = link(x)
    assert link.W.shape == (4, 3, 3, 3)
    numpy.testing.assert_allclose(
        y.array, F.convolution_2d(x, link.W, link.b, 2, 2, dilate=2).array
    )
