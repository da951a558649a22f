import numpy
import pytest

import chainerlite
from chainerlite.links.model.vision import _image
from chainerlite.links.model.vision import googlenet
from chainerlite.links.model.vision import resnet
from chainerlite.links.model.vision import vgg

_MEANS = [
    (vgg.prepare, (103.939, 116.779, 123.68)),
    (resnet.prepare, (103.063, 115.903, 123.152)),
    (googlenet.prepare, (104.0, 117.0, 123.0)),
]


@pytest.mark.parametrize('prepare, mean', _MEANS)
def test_prepare_is_bgr_minus_mean_channels_first(prepare, mean):
    image = numpy.random.randint(0, 256, (5, 4, 3)).astype(numpy.uint8)
    expected = numpy.empty((3, 5, 4), numpy.float32)
    for c in range(3):  # output channel c is input channel 2 - c
        expected[c] = image[:, :, 2 - c].astype(numpy.float32) - numpy.float32(mean[c])
    y = prepare(image, size=None)
    assert y.dtype == numpy.float32
    numpy.testing.assert_array_equal(y, expected)
    numpy.testing.assert_array_equal(
        prepare(image.transpose(2, 0, 1), size=None), expected
    )
    gray = image[:, :, 0]
    y = prepare(gray[None], size=None)
    for c in range(3):
        numpy.testing.assert_array_equal(y[c], gray - numpy.float32(mean[c]))
    numpy.testing.assert_array_equal(prepare(gray, size=None), y)


def test_prepare_shapes_and_dtype():
    with chainerlite.using_config('dtype', numpy.float16):
        assert vgg.prepare(numpy.zeros((32, 24), numpy.uint8)).shape == (3, 224, 224)
        y = vgg.prepare(numpy.zeros((1, 16, 12), numpy.float32), size=(8, 6))
    assert y.shape == (3, 6, 8) and y.dtype == numpy.float16
    # values are taken as uint8, as Pillow takes them (truncated)
    y = resnet.prepare(numpy.full((2, 2, 3), 7.9), size=None)
    numpy.testing.assert_allclose(y[0], 7 - 103.063, rtol=1e-6)
    rgba = numpy.random.randint(0, 256, (4, 5, 4)).astype(numpy.uint8)
    numpy.testing.assert_array_equal(
        googlenet.prepare(rgba, size=None), googlenet.prepare(rgba[:, :, :3], size=None)
    )


def test_resize_without_pillow_is_bilinear(monkeypatch):
    monkeypatch.setattr(_image, 'Image', None)
    ramp = numpy.zeros((2, 4, 3), numpy.uint8)
    ramp[:] = numpy.array([0, 20, 40, 60], numpy.uint8)[None, :, None]
    y = googlenet.prepare(ramp, size=(8, 3))
    assert y.shape == (3, 3, 8)
    expected = numpy.array([0, 5, 15, 25, 35, 45, 55, 60], numpy.float32) - 104.0
    numpy.testing.assert_array_equal(y[0], numpy.tile(expected, (3, 1)))
    with pytest.raises(ImportError, match='prepare: .*Pillow'):
        vgg.prepare([[0, 1], [2, 3]])


def test_prepare_errors():
    with pytest.raises(ValueError, match=r'prepare: .*\(2, 3, 5, 5\)'):
        vgg.prepare(numpy.zeros((2, 3, 5, 5), numpy.uint8))
    with pytest.raises(ValueError, match='prepare'):
        vgg.prepare(numpy.zeros((5, 5, 2), numpy.uint8))


def test_pil_images_are_accepted():
    image_module = pytest.importorskip('PIL.Image')
    array = numpy.random.randint(0, 256, (20, 30, 3)).astype(numpy.uint8)
    expected = resnet.prepare(array, size=(10, 12))
    assert expected.shape == (3, 12, 10)
    got = resnet.prepare(image_module.fromarray(array), size=(10, 12))
    numpy.testing.assert_array_equal(got, expected)
    gray = image_module.fromarray(array[:, :, 1])
    numpy.testing.assert_array_equal(
        resnet.prepare(gray, size=None), resnet.prepare(array[:, :, 1], size=None)
    )
    with pytest.raises(TypeError, match='prepare: .*list'):
        resnet.prepare([1, 2])
