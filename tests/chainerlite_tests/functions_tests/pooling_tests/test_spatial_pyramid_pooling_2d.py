import numpy
import pytest

import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite import testing
from chainerlite.utils import type_check


def _pyramid(x, height):
    # Level l: pad with -inf to 2**l equal windows per axis (the padding
    # split between both ends, the odd pixel at the end) and take maxima.
    n, c, h, w = x.shape
    levels = []
    for level in range(height):
        bins = 2**level
        kh, kw = -(-h // bins), -(-w // bins)
        top, left = (kh * bins - h) // 2, (kw * bins - w) // 2
        padded = numpy.full((n, c, kh * bins, kw * bins), -numpy.inf)
        padded[:, :, top : top + h, left : left + w] = x
        blocks = padded.reshape(n, c, bins, kh, bins, kw).max(axis=(3, 5))
        levels.append(blocks.reshape(n, -1))
    return numpy.concatenate(levels, axis=1)[:, :, None, None]


@testing.parameterize(
    *testing.product(
        {
            'shape': [(2, 3, 9, 8), (1, 2, 4, 4)],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
class TestSpatialPyramidPooling2D:
    def setup_method(self):
        x = numpy.linspace(-1, 1, numpy.prod(self.shape))
        numpy.random.shuffle(x)
        self.x = x.reshape(self.shape).astype(self.dtype)

    def test_forward(self):
        y = F.spatial_pyramid_pooling_2d(self.x, 3, pooling='max')
        assert y.dtype == self.dtype
        testing.assert_allclose(y.array, _pyramid(self.x, 3).astype(self.dtype))

    def test_backward(self):
        x = self.x.astype(numpy.float64)
        gy = numpy.random.uniform(-1, 1, (self.shape[0], self.shape[1] * 21, 1, 1))
        ggx = numpy.random.uniform(-1, 1, self.shape)
        f = lambda x: F.spatial_pyramid_pooling_2d(x, 3, pooling='max')  # NOQA
        gradient_check.check_backward(f, x, gy, eps=1e-4)
        gradient_check.check_double_backward(f, x, gy, ggx, eps=1e-4)


@pytest.mark.parametrize('pooling', [None, 'avg'])
def test_pooling_must_be_max(pooling):
    with pytest.raises(ValueError, match='pooling'):
        F.spatial_pyramid_pooling_2d(
            numpy.zeros((1, 1, 4, 4), numpy.float32), 2, pooling=pooling
        )


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType):
        F.spatial_pyramid_pooling_2d(
            numpy.zeros((1, 1, 4, 4), numpy.int32), 2, pooling='max'
        )
