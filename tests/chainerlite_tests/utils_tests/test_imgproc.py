import numpy
import pytest

from chainerlite.utils import imgproc


def test_oversample_takes_corners_centre_and_mirrors():
    images = numpy.arange(2 * 3 * 5 * 6, dtype=numpy.float32).reshape(2, 3, 5, 6)
    crops = imgproc.oversample(images, (3, 2))
    assert crops.shape == (20, 3, 3, 2) and crops.dtype == numpy.float32
    for n in range(2):
        image = images[n]
        expected = [
            image[:, 0:3, 0:2],
            image[:, 0:3, 4:6],
            image[:, 2:5, 0:2],
            image[:, 2:5, 4:6],
            image[:, 1:4, 2:4],
        ]
        expected += [numpy.flip(crop, axis=2) for crop in expected]
        numpy.testing.assert_array_equal(
            crops[10 * n : 10 * n + 10], numpy.stack(expected)
        )


def test_oversample_errors():
    with pytest.raises(ValueError, match='oversample: crop'):
        imgproc.oversample(numpy.zeros((1, 3, 4, 4)), (5, 2))
    with pytest.raises(ValueError, match='oversample: images must have shape'):
        imgproc.oversample(numpy.zeros((3, 4, 4)), (2, 2))
