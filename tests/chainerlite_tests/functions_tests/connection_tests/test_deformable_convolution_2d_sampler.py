import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.utils import type_check


def _bilinear(img, y, x):
    """Bilinear sample of ``img`` (c, h, w) at (y, x), zero outside."""
    h, w = img.shape[1:]
    y0, x0 = int(numpy.floor(y)), int(numpy.floor(x))
    value = numpy.zeros(img.shape[0])
    for cy, wy in ((y0, 1 - (y - y0)), (y0 + 1, y - y0)):
        for cx, wx in ((x0, 1 - (x - x0)), (x0 + 1, x - x0)):
            if 0 <= cy < h and 0 <= cx < w:
                value += wy * wx * img[:, cy, cx]
    return value


def test_forward_against_bilinear_sampling():
    x = numpy.random.uniform(-1, 1, (2, 3, 5, 4))
    W = numpy.random.uniform(-1, 1, (2, 3, 2, 3))
    b = numpy.random.uniform(-1, 1, 2)
    offset = numpy.random.uniform(-2, 2, (2, 12, 3, 2))
    y = F.deformable_convolution_2d_sampler(x, offset, W, b, stride=(2, 2), pad=1).array
    expected = numpy.zeros(y.shape)
    for n in range(2):
        for p in range(3):
            for q in range(2):
                for j in range(2):
                    for i in range(3):
                        t = j * 3 + i
                        v = _bilinear(
                            x[n],
                            p * 2 - 1 + j + offset[n, 6 + t, p, q],
                            q * 2 - 1 + i + offset[n, t, p, q],
                        )
                        expected[n, :, p, q] += W[:, :, j, i].dot(v)
    expected += b.reshape(1, -1, 1, 1)
    numpy.testing.assert_allclose(y, expected, rtol=1e-10, atol=1e-12)


def test_zero_offsets_give_the_convolution():
    x = numpy.random.uniform(-1, 1, (1, 2, 5, 5)).astype(numpy.float32)
    W = numpy.random.uniform(-1, 1, (3, 2, 3, 3)).astype(numpy.float32)
    offset = numpy.zeros((1, 18, 3, 3), numpy.float32)
    numpy.testing.assert_allclose(
        F.deformable_convolution_2d_sampler(x, offset, W, stride=2, pad=1).array,
        F.convolution_2d(x, W, stride=2, pad=1).array,
        atol=1e-6,
    )


def test_backward():
    x = numpy.random.uniform(-1, 1, (1, 2, 4, 4))
    W = numpy.random.uniform(-1, 1, (2, 2, 2, 2))
    b = numpy.random.uniform(-1, 1, 2)
    # fractional offsets away from the kinks of bilinear interpolation
    offset = numpy.random.uniform(0.2, 0.8, (1, 8, 3, 3)) * numpy.random.choice(
        [-1, 1], (1, 8, 3, 3)
    )
    gy = numpy.random.uniform(-1, 1, (1, 2, 3, 3))
    gradient_check.check_backward(
        F.deformable_convolution_2d_sampler,
        (x, offset, W, b),
        gy,
        eps=1e-4,
        atol=1e-4,
        rtol=1e-4,
    )


def test_offset_shape_is_checked():
    with pytest.raises(type_check.InvalidType, match='deformable'):
        F.deformable_convolution_2d_sampler(
            numpy.zeros((1, 2, 4, 4)),
            numpy.zeros((1, 6, 3, 3)),
            numpy.zeros((2, 2, 2, 2)),
        )


def test_offset_channels_not_fitting_the_kernel_is_value_error():
    x = numpy.zeros((1, 1, 1, 4), numpy.float32)
    offset = numpy.zeros((1, 1, 1, 4), numpy.float32)  # 2 * kh * kw is 2
    W = numpy.zeros((1, 1, 1, 1), numpy.float32)
    with pytest.raises(ValueError, match='deformable_convolution_2d_sampler') as info:
        F.deformable_convolution_2d_sampler(x, offset, W)
    assert isinstance(info.value, type_check.InvalidType)


@pytest.mark.filterwarnings('ignore::RuntimeWarning')
def test_offset_gradient_beside_nan_and_infinite_pixels_is_chainers():
    # Chainer reads the image with a border of zeros and multiplies the
    # gradient of a clamped (or NaN) position by 0, so NaN or infinite
    # pixels reach it as NaN; the pattern below is Chainer 7.8.1's.
    nan, inf = numpy.nan, numpy.inf
    x = (
        numpy.array(
            [
                [[-4, nan, -1], [0.5, 2, 3.5], [inf, 6.5, -4]],
                [[nan, -1, 0.5], [2, 3.5, inf], [6.5, -4, nan]],
            ],
            numpy.float32,
        )[None]
        / 3
    )
    offset = numpy.zeros((1, 8, 2, 2), numpy.float32)
    offset[0, 0, 0, 0], offset[0, 5, 1, 1], offset[0, 2, 0, 1] = nan, inf, 0.5
    W = numpy.linspace(-0.75, 1.75, 24).reshape(3, 2, 2, 2).astype(numpy.float32)
    offset = chainerlite.Variable(offset)
    y = F.deformable_convolution_2d_sampler(x, offset, W)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    g = offset.grad.ravel()
    finite = {10: -inf, 18: inf, 21: inf, 24: inf, 26: -inf}
    for i, value in enumerate(g):
        if i in finite:
            assert value == finite[i], i
        else:
            assert numpy.isnan(value), i
