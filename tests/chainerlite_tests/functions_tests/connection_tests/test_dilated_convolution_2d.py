import numpy

import chainerlite.functions as F
from chainerlite import gradient_check


def test_forward_reads_taps_dilate_apart():
    x = numpy.random.uniform(-1, 1, (2, 3, 7, 6))
    W = numpy.random.uniform(-1, 1, (4, 3, 2, 3))
    b = numpy.random.uniform(-1, 1, 4)
    y = F.dilated_convolution_2d(x, W, b, stride=(2, 1), pad=1, dilate=(3, 2)).array
    padded = numpy.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    expected = numpy.zeros(y.shape) + b.reshape(1, -1, 1, 1)
    for p in range(y.shape[2]):
        for q in range(y.shape[3]):
            taps = padded[:, :, p * 2 : p * 2 + 4 : 3, q : q + 5 : 2]
            expected[:, :, p, q] += numpy.einsum('ncji,ocji->no', taps, W)
    numpy.testing.assert_allclose(y, expected, rtol=1e-12)


def test_backward():
    x = numpy.random.uniform(-1, 1, (1, 2, 5, 5))
    W = numpy.random.uniform(-1, 1, (2, 2, 2, 2))
    gy = numpy.random.uniform(-1, 1, (1, 2, 3, 3))
    gradient_check.check_backward(
        lambda x, W: F.dilated_convolution_2d(x, W, dilate=2, cover_all=True),
        (x, W),
        gy,
    )
