import os

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
import chainerlite.links as L
from chainerlite.exporters import caffe
from chainerlite.links.caffe import caffe_pb


def _rand(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


class _Net(chainerlite.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(3, 4, 3, stride=1, pad=1)
            self.grouped = L.Convolution2D(4, 4, 1, groups=2)
            self.bn = L.BatchNormalization(4, eps=1e-3)
            self.up = L.Deconvolution2D(4, 2, 2, stride=2)
            self.fc = L.Linear(None, 5)

    def forward(self, x):
        h = F.relu(self.conv(x))
        h = self.bn(self.grouped(h))
        h = F.max_pooling_2d(h, 2, stride=2)
        h = F.concat([self.up(h), F.leaky_relu(self.up(h), 0.2)], axis=1)
        h = F.average_pooling_2d(h, 2)
        h = F.local_response_normalization(h, n=3)
        h = F.reshape(h, (h.shape[0], -1)) + F.sigmoid(F.reshape(h, (h.shape[0], -1)))
        return F.softmax(self.fc(F.tanh(h)))


def _export(tmp_path, model, x, **kwargs):
    caffe.export(model, [x], str(tmp_path), **kwargs)
    return os.path.join(str(tmp_path), 'chainer_model.caffemodel')


def test_round_trip(tmp_path):
    model = _Net()
    bn = model.bn
    bn.avg_mean[...] = _rand(4)
    bn.avg_var[...] = numpy.random.uniform(0.5, 2, 4)
    bn.gamma.array[...] = _rand(4)
    bn.beta.array[...] = _rand(4)
    x = _rand(2, 3, 4, 4)
    path = _export(tmp_path, model, x, graph_name='net')
    func = L.caffe.CaffeFunction(path)
    last = func.layers[-1][0]
    with chainerlite.using_config('train', False):
        expected = model(x).array
        (y,) = func(inputs={'data': x}, outputs=[last])
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-4, atol=1e-6)
    types = [layer.type for layer in _read(path).layer]
    assert types.count('Convolution') == 2 and types.count('Deconvolution') == 2
    assert {'BatchNorm', 'Scale', 'Pooling', 'Concat', 'LRN', 'Eltwise'} <= set(types)


def _read(path):
    with open(path, 'rb') as f:
        return caffe_pb.NetParameter.FromString(f.read())


def test_prototxt_and_parameters(tmp_path):
    model = L.Linear(3, 2)
    x = _rand(1, 3)
    path = _export(tmp_path, model, x)
    net = _read(path)
    assert net.name == 'Graph'
    assert list(net.input) == ['data'] and list(net.input_shape[0].dim) == [1, 3]
    (layer,) = net.layer
    assert (layer.name, layer.type, list(layer.bottom)) == (
        'LinearFunction-1',
        'InnerProduct',
        ['data'],
    )
    numpy.testing.assert_array_equal(
        layer.blobs[0].data.array().reshape(2, 3), model.W.array
    )
    with open(os.path.join(str(tmp_path), 'chainer_model.prototxt')) as f:
        text = f.read()
    assert text.startswith('name: "Graph"\ninput: "data"\n')
    assert 'type: "InnerProduct"' in text and 'num_output: 2' in text
    assert 'blobs' not in text


def test_without_parameters(tmp_path):
    path = _export(tmp_path, L.Linear(3, 2), _rand(1, 3), export_params=False)
    assert len(_read(path).layer[0].blobs) == 0


def test_no_directory_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    caffe.export(L.Linear(3, 2), _rand(1, 3))
    assert os.listdir(str(tmp_path)) == []


def test_unsupported_function(tmp_path):
    with pytest.raises(NotImplementedError, match='Exp'):
        caffe.export(lambda x: F.exp(x), [_rand(2, 3)], str(tmp_path))


def test_constant_operand_is_rejected(tmp_path):
    c = _rand(2, 3)
    with pytest.raises(NotImplementedError, match='neither a model input'):
        caffe.export(lambda x: x + c, [_rand(2, 3)], str(tmp_path))


def test_pooling_that_caffe_would_round_up(tmp_path):
    x = _rand(1, 1, 5, 5)
    with pytest.raises(NotImplementedError, match='partial window'):
        caffe.export(lambda x: F.average_pooling_2d(x, 2), [x], str(tmp_path))
    caffe.export(lambda x: F.average_pooling_2d(x, 3, stride=2), [x], str(tmp_path))


def test_batch_normalization_over_other_axes_is_refused(tmp_path):
    # Caffe's BatchNorm keeps statistics per channel (over axes 0, 2, ...)
    def params(*shape):
        P = chainerlite.Parameter
        return [P(numpy.ones(shape, numpy.float32)) for _ in range(4)]

    g, b, m, v = params(3, 4)
    x = chainerlite.Variable(_rand(2, 3, 4))
    with pytest.raises(NotImplementedError, match=r'axis \(0,\)'):
        caffe.export(
            lambda x: F.fixed_batch_normalization(x, g, b, m, v, axis=0),
            [x],
            str(tmp_path),
            False,
        )
    # the default axes of a 4-d input are Caffe's
    g, b, m, v = params(3)
    x4 = chainerlite.Variable(_rand(2, 3, 2, 2))
    caffe.export(
        lambda x: F.fixed_batch_normalization(x, g, b, m, v), [x4], str(tmp_path), False
    )
    assert os.path.exists(os.path.join(str(tmp_path), 'chainer_model.caffemodel'))
