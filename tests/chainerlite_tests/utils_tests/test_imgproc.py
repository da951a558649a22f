import numpy
import pytest

from chainerlite.utils import imgproc


def test_oversample_crops_corners_centre_and_mirrors():
    images = numpy.arange(2 * 2 * 5 * 6, dtype=numpy.float32).reshape(2, 2, 5, 6)
    crops = imgproc.oversample(images, (3, 4))
    assert crops.shape == (20, 2, 3, 4)
    for n, image in enumerate(images):
        expected = [
            image[:, 0:3, 0:4],
            image[:, 0:3, 2:6],
            image[:, 2:5, 0:4],
            image[:, 2:5, 2:6],
            image[:, 1:4, 1:5],
        ]
        expected += [e[:, :, ::-1] for e in expected]
        numpy.testing.assert_array_equal(crops[10 * n : 10 * n + 10], expected)


def test_oversample_refuses_a_crop_larger_than_the_images():
    with pytest.raises(ValueError, match='oversample'):
        imgproc.oversample(numpy.zeros((1, 3, 4, 4)), (5, 2))
