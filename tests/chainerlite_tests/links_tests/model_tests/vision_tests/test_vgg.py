import numpy
import pytest

from chainerlite import links
from chainerlite.links.model.vision import vgg

# (channels, size) of each layer for a 32x32 input
_VGG16_SHAPES = {
    'conv1_1': (64, 32),
    'conv1_2': (64, 32),
    'pool1': (64, 16),
    'conv2_1': (128, 16),
    'conv2_2': (128, 16),
    'pool2': (128, 8),
    'conv3_1': (256, 8),
    'conv3_2': (256, 8),
    'conv3_3': (256, 8),
    'pool3': (256, 4),
    'conv4_1': (512, 4),
    'conv4_2': (512, 4),
    'conv4_3': (512, 4),
    'pool4': (512, 2),
    'conv5_1': (512, 2),
    'conv5_2': (512, 2),
    'conv5_3': (512, 2),
    'pool5': (512, 1),
}


def test_vgg16_every_layer_and_caffe_transfer(fake_caffe, zero_init):
    model = links.VGG16Layers(pretrained_model=None)
    assert type(model) is vgg.VGG16Layers
    assert set(zero_init) == {('Normal', 0.01)}  # the paper's initialization
    names = list(_VGG16_SHAPES) + ['fc6', 'fc7', 'fc8', 'prob']
    assert model.available_layers == names
    x = numpy.random.uniform(-1, 1, (1, 3, 32, 32)).astype(numpy.float32)
    out = model(x, layers=list(_VGG16_SHAPES))
    for name, (channels, size) in _VGG16_SHAPES.items():
        assert out[name].shape == (1, channels, size, size), name
    assert model.fc6.W.shape == (4096, 512 * 7 * 7)
    h = numpy.random.uniform(-1, 1, (1, 512, 7, 7)).astype(numpy.float32)
    for name in ('fc6', 'fc7', 'fc8', 'prob'):
        for func in model.functions[name]:
            h = func(h)
        assert h.shape == ((1, 4096) if name in ('fc6', 'fc7') else (1, 1000))

    vgg._transfer(fake_caffe, model)
    convs = [name for name in names if name.startswith(('conv', 'fc'))]
    assert fake_caffe.names == convs
    for name in convs:
        link = getattr(model, name)
        assert (link.W.array == fake_caffe.value(name)).all(), name
        assert (link.b.array == fake_caffe.value(name) + 0.5).all(), name

    copied = model.copy()
    assert copied.conv1_1 is copied.functions['conv1_1'][0]


def test_vgg19_layers(lazy_linear):
    model = links.VGG19Layers(pretrained_model=None)
    assert len(model.available_layers) == 25
    assert model.available_layers[8:11] == ['conv3_3', 'conv3_4', 'pool3']
    x = numpy.random.uniform(-1, 1, (1, 3, 32, 32)).astype(numpy.float32)
    out = model(x, layers=['conv5_4', 'pool5'])
    assert out['conv5_4'].shape == (1, 512, 2, 2)
    assert out['pool5'].shape == (1, 512, 1, 1)
    with pytest.raises(ValueError, match='VGGLayers: n_layers must be 16 or 19'):
        vgg.VGGLayers(None, n_layers=11)
