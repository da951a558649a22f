import numpy
import pytest

import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.utils import type_check


def test_forward_convolves_each_channel_with_its_filters():
    x = numpy.random.uniform(-1, 1, (2, 3, 5, 4))
    W = numpy.random.uniform(-1, 1, (2, 3, 3, 2))  # multiplier 2
    b = numpy.random.uniform(-1, 1, 6)
    y = F.depthwise_convolution_2d(x, W, b, stride=(1, 2), pad=1).array
    padded = numpy.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    assert y.shape == (2, 6, 5, 3)
    for k in range(3):
        for j in range(2):
            for p in range(5):
                for q in range(3):
                    patch = padded[:, k, p : p + 3, q * 2 : q * 2 + 2]
                    numpy.testing.assert_allclose(
                        y[:, k * 2 + j, p, q],
                        (patch * W[j, k]).sum(axis=(1, 2)) + b[k * 2 + j],
                    )


def test_backward():
    x = numpy.random.uniform(-1, 1, (1, 2, 4, 4))
    W = numpy.random.uniform(-1, 1, (3, 2, 2, 2))
    b = numpy.random.uniform(-1, 1, 6)
    gy = numpy.random.uniform(-1, 1, (1, 6, 2, 2))
    gradient_check.check_backward(
        lambda *a: F.depthwise_convolution_2d(*a, stride=2), (x, W, b), gy
    )


def test_channels_must_match():
    with pytest.raises(type_check.InvalidType, match='depthwise'):
        F.depthwise_convolution_2d(numpy.zeros((1, 2, 4, 4)), numpy.zeros((3, 3, 2, 2)))


@pytest.mark.parametrize(
    'x_shape, w_shape, error',
    [
        ((1, 2, 3, 3), (1, 2, 1), ValueError),  # Chainer unpacks W's axes
        ((), (1, 2, 1, 1), IndexError),  # its convolution reads x.shape[1]
    ],
)
def test_bad_ranks_raise_chainers_type(x_shape, w_shape, error):
    x = numpy.zeros(x_shape, numpy.float32)
    W = numpy.zeros(w_shape, numpy.float32)
    with pytest.raises(error, match='depthwise_convolution_2d') as info:
        F.depthwise_convolution_2d(x, W)
    assert isinstance(info.value, type_check.InvalidType)
