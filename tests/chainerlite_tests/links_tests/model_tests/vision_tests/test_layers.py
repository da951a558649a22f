import collections
import os
import urllib.error

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite import links
from chainerlite.dataset import download
from chainerlite.links.model.vision import _layers
from chainerlite.links.model.vision import googlenet
from chainerlite.links.model.vision import resnet
from chainerlite.serializers import npz

_MEAN = (10.0, 20.0, 30.0)


class _Tiny(_layers.PretrainedLayers):
    """A small model with the shared machinery: conv, pool, fc, prob, aux."""

    _mean = _MEAN
    _extract_layers = ['pool']
    _branches = {'aux': 'conv'}

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = links.Convolution2D(3, 4, 3, pad=1)
            self.fc = links.Linear(4, 1000)
            self.aux_fc = links.Linear(None, 2)
        self.calls = collections.Counter()

    def _count(self, name, func):
        def counted(x):
            self.calls[name] += 1
            return func(x)

        return counted

    @property
    def functions(self):
        return collections.OrderedDict(
            [
                ('conv', [self._count('conv', self.conv), F.relu]),
                ('pool', [lambda x: F.mean(x, axis=(2, 3))]),
                ('fc', [self._count('fc', self.fc)]),
                ('prob', [F.softmax]),
                ('aux', [self._count('aux', self.aux_fc)]),
            ]
        )


def _numpy_prepare(image):
    # HWC RGB uint8 -> CHW BGR minus the mean
    bgr = image[:, :, ::-1].astype(numpy.float32) - numpy.array(_MEAN, numpy.float32)
    return bgr.transpose(2, 0, 1)


def _softmax(a):
    e = numpy.exp(a - a.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def test_forward_returns_the_layers_asked_for_and_stops_early():
    model = _Tiny()
    x = numpy.random.uniform(-1, 1, (2, 3, 5, 5)).astype(numpy.float32)
    assert list(model.forward(x)) == ['prob']
    model.calls.clear()
    out = model(x, layers=['pool', 'conv'])
    assert sorted(out) == ['conv', 'pool']
    assert model.calls == {'conv': 1}
    h = numpy.maximum(model.conv(x).array, 0)
    numpy.testing.assert_allclose(out['conv'].array, h, rtol=1e-6)
    numpy.testing.assert_allclose(out['pool'].array, h.mean(axis=(2, 3)), rtol=1e-5)


def test_branch_starts_from_its_source_layer():
    model = _Tiny()
    x = numpy.random.uniform(-1, 1, (2, 3, 4, 4)).astype(numpy.float32)
    model.calls.clear()
    out = model(x, layers=['aux'])
    assert list(out) == ['aux']
    assert model.calls == {'conv': 1, 'aux': 1}  # the main path stops at conv
    h = numpy.maximum(model.conv(x).array, 0).reshape(2, -1)
    expected = h @ model.aux_fc.W.array.T + model.aux_fc.b.array
    numpy.testing.assert_allclose(out['aux'].array, expected, rtol=1e-5, atol=1e-6)
    assert model.available_layers == ['conv', 'pool', 'fc', 'prob', 'aux']


def test_bad_layer_names_and_arguments():
    model = _Tiny()
    x = numpy.zeros((1, 3, 4, 4), numpy.float32)
    with pytest.raises(ValueError, match=r"_Tiny: no layer named 'fc7'"):
        model(x, layers=['conv', 'fc7'])
    with pytest.raises(ValueError, match='test argument is not supported'):
        model(x, test=True)
    with pytest.raises(TypeError, match='train'):
        model(x, train=False)
    with pytest.raises(ValueError, match='volatile argument'):
        model.extract([numpy.zeros((4, 4, 3), numpy.uint8)], volatile=True)


def test_extract_prepares_and_stacks_the_images():
    model = _Tiny()
    images = [
        numpy.random.randint(0, 256, (6, 5, 3)).astype(numpy.uint8),
        numpy.random.randint(0, 256, (3, 6, 5)).astype(numpy.uint8),
    ]
    out = model.extract(images, size=None)
    assert list(out) == ['pool']
    x = numpy.stack(
        [_numpy_prepare(images[0]), _numpy_prepare(images[1].transpose(1, 2, 0))]
    )
    expected = numpy.maximum(model.conv(x).array, 0).mean(axis=(2, 3))
    numpy.testing.assert_allclose(out['pool'].array, expected, rtol=1e-5, atol=1e-5)
    assert out['pool'].creator is not None  # extract keeps enable_backprop


def test_predict_averages_ten_crops_in_test_mode():
    model = _Tiny()
    image = numpy.random.randint(0, 256, (256, 256, 3)).astype(numpy.uint8)
    x = _numpy_prepare(image)[None]

    def probs(batch):
        h = numpy.maximum(model.conv(batch).array, 0).mean(axis=(2, 3))
        return _softmax(h @ model.fc.W.array.T + model.fc.b.array)

    y = model.predict([image], oversample=False)
    assert y.shape == (1, 1000) and y.creator is None
    numpy.testing.assert_allclose(
        y.array, probs(x[:, :, 16:240, 16:240]), rtol=1e-4, atol=1e-12
    )

    crops = []
    for top, left in [(0, 0), (0, 32), (32, 0), (32, 32), (16, 16)]:
        crops.append(x[:, :, top : top + 224, left : left + 224])
    crops += [c[:, :, :, ::-1] for c in crops]
    expected = probs(numpy.concatenate(crops)).mean(axis=0, keepdims=True)
    with chainerlite.using_config('train', True):
        y = model.predict([image])
    assert y.creator is None
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-4, atol=1e-12)


def test_load_from_a_path_and_from_the_dataset_root(tmp_path, monkeypatch):
    source = _Tiny()
    source.aux_fc(numpy.zeros((1, 4), numpy.float32))
    path = str(tmp_path / 'weights.npz')
    npz.save_npz(path, source)

    def unused(path):
        raise AssertionError('make_npz called')

    model = _Tiny()
    model.aux_fc(numpy.zeros((1, 4), numpy.float32))
    _layers.load(model, path, 'tiny.npz', unused)
    numpy.testing.assert_array_equal(model.conv.W.array, source.conv.W.array)

    monkeypatch.setattr(download, '_dataset_root', str(tmp_path / 'root'))
    models = tmp_path / 'root' / 'pfnet' / 'chainer' / 'models'
    models.mkdir(parents=True)
    os.rename(path, str(models / 'tiny.npz'))
    model = _Tiny()
    model.aux_fc(numpy.zeros((1, 4), numpy.float32))
    _layers.load(model, 'auto', 'tiny.npz', unused)
    numpy.testing.assert_array_equal(model.fc.b.array, source.fc.b.array)
    _layers.load(model, None, 'tiny.npz', unused)


def test_auto_converts_the_downloaded_caffemodel(tmp_path, monkeypatch, fake_caffe):
    monkeypatch.setattr(download, '_dataset_root', str(tmp_path))
    urls = []
    monkeypatch.setattr(
        download, 'cached_download', lambda url: urls.append(url) or 'x'
    )
    monkeypatch.setattr(_layers, 'read_caffemodel', lambda path: fake_caffe)
    model = googlenet.GoogLeNet()
    assert urls == ['http://dl.caffe.berkeleyvision.org/bvlc_googlenet.caffemodel']
    assert (model.conv1.W.array == fake_caffe.value('conv1/7x7_s2')).all()
    assert (
        model.inc5b.projp.b.array == fake_caffe.value('inception_5b/pool_proj') + 0.5
    ).all()
    assert (tmp_path / 'pfnet' / 'chainer' / 'models' / 'bvlc_googlenet.npz').exists()


def test_auto_without_network_or_caffemodel_says_what_to_do(tmp_path, monkeypatch):
    monkeypatch.setattr(download, '_dataset_root', str(tmp_path))

    def offline(url):
        raise urllib.error.URLError('Name or service not known')

    monkeypatch.setattr(download, 'cached_download', offline)
    with pytest.raises(
        urllib.error.URLError,
        match='GoogLeNet: cannot download .*convert_caffemodel_to_npz',
    ) as info:
        googlenet.GoogLeNet()
    assert info.value.__cause__.reason == 'Name or service not known'
    with pytest.raises(OSError, match='ResNet-50-model.caffemodel does not exist'):
        resnet.ResNet50Layers()


def test_check_backward_through_a_bottleneck():
    with chainerlite.using_config('dtype', numpy.float64):
        block = resnet.BottleneckA(2, 2, 3, stride=2)
    x = numpy.random.uniform(-1, 1, (3, 2, 4, 4))
    gy = numpy.random.uniform(-1, 1, (3, 3, 2, 2))
    params = [block.conv1.W, block.conv4.W, block.bn3.gamma]
    gradient_check.check_backward(
        block, x, gy, params=params, dtype=numpy.float64, atol=1e-4, rtol=1e-4
    )
