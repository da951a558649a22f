import os
import subprocess
import sys

import numpy
import pytest

import chainerlite
import chainerlite.links as L
from chainerlite.links.caffe import caffe_pb


def _rand(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


def _add_layer(net, name, typ, bottoms, tops, blobs=()):
    layer = net.layer.add(name=name, type=typ)
    layer.bottom.extend(bottoms)
    layer.top.extend(tops)
    for array in blobs:
        blob = layer.blobs.add()
        blob.shape.dim.extend(array.shape)
        blob.data.extend(array.ravel().tolist())
    return layer


def _load(tmp_path, net):
    path = os.path.join(str(tmp_path), 'model.caffemodel')
    with open(path, 'wb') as f:
        f.write(net.SerializeToString())
    return L.caffe.CaffeFunction(path)


def _run(func, inputs, outputs, **kwargs):
    inputs = {k: chainerlite.Variable(v) for k, v in inputs.items()}
    with chainerlite.using_config('train', False):
        return [y.array for y in func(inputs=inputs, outputs=outputs, **kwargs)]


def _conv_ref(x, W, b, stride, pad):
    """Caffe's convolution: cross-correlation, floor output size."""
    x = numpy.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    kh, kw = W.shape[2:]
    oh = (x.shape[2] - kh) // stride + 1
    ow = (x.shape[3] - kw) // stride + 1
    y = numpy.zeros((x.shape[0], W.shape[0], oh, ow))
    for i in range(oh):
        for j in range(ow):
            patch = x[:, :, i * stride : i * stride + kh, j * stride : j * stride + kw]
            y[:, :, i, j] = numpy.tensordot(patch, W, ((1, 2, 3), (1, 2, 3)))
    return y + b[None, :, None, None]


def test_convolution_with_groups_relu_and_max_pooling(tmp_path):
    net = caffe_pb.NetParameter()
    W, b = _rand(4, 1, 3, 3), _rand(4)  # 2 groups of 1 input channel
    conv = _add_layer(net, 'conv1/3x3', 'Convolution', ['data'], ['c'], [W, b])
    conv.convolution_param.num_output = 4
    conv.convolution_param.kernel_size.append(3)
    conv.convolution_param.pad.append(1)
    conv.convolution_param.group = 2
    _add_layer(net, 'relu', 'ReLU', ['c'], ['r'])
    pool = _add_layer(net, 'pool', 'Pooling', ['r'], ['p'])
    pool.pooling_param.kernel_size = 2
    pool.pooling_param.stride = 2
    func = _load(tmp_path, net)
    assert isinstance(func['conv1/3x3'], L.Convolution2D)
    assert [name for name, _, _ in func.layers] == ['conv1/3x3', 'relu', 'pool']
    x = _rand(2, 2, 5, 5)
    c, p = _run(func, {'data': x}, ['c', 'p'])
    expected = numpy.concatenate(
        [
            _conv_ref(x[:, :1], W[:2], b[:2], 1, 1),
            _conv_ref(x[:, 1:], W[2:], b[2:], 1, 1),
        ],
        axis=1,
    )
    numpy.testing.assert_allclose(c, expected, rtol=1e-5, atol=1e-5)
    r = numpy.maximum(expected, 0)
    # Caffe rounds the pooled size up: 5 -> 3, the last window is partial
    rp = numpy.pad(r, ((0, 0), (0, 0), (0, 1), (0, 1)), constant_values=-numpy.inf)
    ref = rp.reshape(2, 4, 3, 2, 3, 2).max(axis=(3, 5))
    numpy.testing.assert_allclose(p, ref, rtol=1e-5, atol=1e-5)


def test_deconvolution(tmp_path):
    net = caffe_pb.NetParameter()
    W, b = _rand(2, 3, 2, 2), _rand(3)
    deconv = _add_layer(net, 'up', 'Deconvolution', ['x'], ['y'], [W, b])
    deconv.convolution_param.num_output = 3
    deconv.convolution_param.kernel_size.append(2)
    deconv.convolution_param.stride.append(2)
    func = _load(tmp_path, net)
    x = _rand(1, 2, 3, 3)
    (y,) = _run(func, {'x': x}, ['y'])
    ref = numpy.zeros((1, 3, 6, 6))
    for i in range(3):
        for j in range(3):
            ref[:, :, 2 * i : 2 * i + 2, 2 * j : 2 * j + 2] += numpy.einsum(
                'nc,cokl->nokl', x[:, :, i, j], W
            )
    numpy.testing.assert_allclose(y, ref + b[None, :, None, None], rtol=1e-5, atol=1e-5)


def test_inner_product_softmax_and_legacy_blob_shape(tmp_path):
    net = caffe_pb.NetParameter()
    fc = _add_layer(net, 'fc', 'InnerProduct', ['x'], ['h'])
    W, b = _rand(3, 8), _rand(3)
    blob = fc.blobs.add()  # the old 4-d blob: 1 x 1 x out x in
    blob.num, blob.channels, blob.height, blob.width = 1, 1, 3, 8
    blob.data.extend(W.ravel().tolist())
    fc.blobs.add().data.extend(b.tolist())
    fc.inner_product_param.num_output = 3
    _add_layer(net, 'prob', 'Softmax', ['h'], ['p'])
    func = _load(tmp_path, net)
    x = _rand(2, 2, 2, 2)
    h, p = _run(func, {'x': x}, ['h', 'p'])
    ref = x.reshape(2, 8) @ W.T + b
    numpy.testing.assert_allclose(h, ref, rtol=1e-5, atol=1e-6)
    e = numpy.exp(ref - ref.max(axis=1, keepdims=True))
    numpy.testing.assert_allclose(p, e / e.sum(axis=1, keepdims=True), rtol=1e-5)


def test_batch_norm_and_scale(tmp_path):
    net = caffe_pb.NetParameter()
    mean, var = _rand(3), numpy.random.uniform(0.5, 2, 3).astype(numpy.float32)
    factor = numpy.array([2.0], numpy.float32)  # Caffe stores sums: divide
    bn = _add_layer(net, 'bn', 'BatchNorm', ['x'], ['n'], [mean * 2, var * 2, factor])
    bn.batch_norm_param.use_global_stats = True
    bn.batch_norm_param.eps = 1e-3
    gamma, beta = _rand(3), _rand(3)
    sc = _add_layer(net, 'sc', 'Scale', ['n'], ['y'], [gamma, beta])
    sc.scale_param.bias_term = True
    func = _load(tmp_path, net)
    x = _rand(2, 3, 2)
    (y,) = _run(func, {'x': x}, ['y'])
    n = (x - mean[:, None]) / numpy.sqrt(var[:, None] + 1e-3)
    numpy.testing.assert_allclose(
        y, n * gamma[:, None] + beta[:, None], rtol=1e-4, atol=1e-5
    )


def test_elementwise_layers(tmp_path):
    net = caffe_pb.NetParameter()
    _add_layer(net, 'split', 'Split', ['a'], ['a1', 'a2'])
    _add_layer(
        net, 'prod', 'Eltwise', ['a1', 'b'], ['prod']
    ).eltwise_param.operation = 0
    coeff = _add_layer(net, 'sum', 'Eltwise', ['a2', 'b'], ['sum'])
    coeff.eltwise_param.coeff.extend([2, -1])
    _add_layer(
        net, 'max', 'Eltwise', ['a', 'b', 'prod'], ['max']
    ).eltwise_param.operation = 2
    _add_layer(net, 'cat', 'Concat', ['a', 'b'], ['cat'])
    _add_layer(net, 'tanh', 'TanH', ['a'], ['tanh'])
    _add_layer(net, 'leaky', 'ReLU', ['a'], ['leaky']).relu_param.negative_slope = 0.25
    _add_layer(net, 'drop', 'Dropout', ['a'], ['drop'])
    func = _load(tmp_path, net)
    assert func.split_map == {'a1': 'a', 'a2': 'a'}
    a, b = _rand(2, 3), _rand(2, 3)
    names = ['prod', 'sum', 'max', 'cat', 'tanh', 'leaky', 'drop', 'a1']
    out = dict(zip(names, _run(func, {'a': a, 'b': b}, names)))
    numpy.testing.assert_allclose(out['prod'], a * b, rtol=1e-6)
    numpy.testing.assert_allclose(out['sum'], 2 * a - b, rtol=1e-6)
    numpy.testing.assert_allclose(out['max'], numpy.maximum(numpy.maximum(a, b), a * b))
    numpy.testing.assert_allclose(out['cat'], numpy.concatenate([a, b], axis=1))
    numpy.testing.assert_allclose(out['tanh'], numpy.tanh(a), rtol=1e-5)
    numpy.testing.assert_allclose(out['leaky'], numpy.where(a > 0, a, a * 0.25))
    numpy.testing.assert_allclose(out['drop'], a)  # identity in test mode
    numpy.testing.assert_allclose(out['a1'], a)


def test_slice_reshape_lrn_and_average_pooling(tmp_path):
    net = caffe_pb.NetParameter()
    _add_layer(
        net, 'slice', 'Slice', ['x'], ['s1', 's2']
    ).slice_param.slice_point.append(1)
    reshape = _add_layer(net, 'reshape', 'Reshape', ['s2'], ['r'])
    reshape.reshape_param.shape.dim.extend([0, -1])  # 0 keeps the batch size
    lrn = _add_layer(net, 'lrn', 'LRN', ['x'], ['n'])
    lrn.lrn_param.local_size = 3
    lrn.lrn_param.alpha = 0.3
    lrn.lrn_param.beta = 0.75
    pool = _add_layer(net, 'ave', 'Pooling', ['x'], ['ave'])
    pool.pooling_param.pool = caffe_pb.PoolingParameter.AVE
    pool.pooling_param.global_pooling = True
    func = _load(tmp_path, net)
    x = _rand(2, 3, 2, 2)
    s1, r, n, ave = _run(func, {'x': x}, ['s1', 'r', 'n', 'ave'])
    numpy.testing.assert_array_equal(s1, x[:, :1])
    numpy.testing.assert_array_equal(r, x[:, 1:].reshape(2, 8))
    sq = numpy.pad(x**2, ((0, 0), (1, 1), (0, 0), (0, 0)))
    window = sq[:, :-2] + sq[:, 1:-1] + sq[:, 2:]
    numpy.testing.assert_allclose(n, x / (1 + 0.1 * window) ** 0.75, rtol=1e-5)
    numpy.testing.assert_allclose(ave, x.mean(axis=(2, 3), keepdims=True), rtol=1e-5)


def test_v1_layers_format(tmp_path):
    net = caffe_pb.NetParameter()
    layer = net.layers.add(name='fc', type=caffe_pb.V1LayerParameter.INNER_PRODUCT)
    layer.bottom.append('x')
    layer.top.append('y')
    W = _rand(2, 3)
    blob = layer.blobs.add()
    blob.shape.dim.extend([2, 3])
    blob.data.extend(W.ravel().tolist())
    layer.inner_product_param.bias_term = False
    relu = net.layers.add(name='relu', type=caffe_pb.V1LayerParameter.RELU)
    relu.bottom.append('y')
    relu.top.append('z')
    sigmoid = net.layers.add(name='sig', type=caffe_pb.V1LayerParameter.SIGMOID)
    sigmoid.bottom.append('z')
    sigmoid.top.append('s')
    func = _load(tmp_path, net)
    x = _rand(4, 3)
    z, s = _run(func, {'x': x}, ['z', 's'])
    numpy.testing.assert_allclose(z, numpy.maximum(x @ W.T, 0), rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(s, 1 / (1 + numpy.exp(-z)), rtol=1e-5)


def test_disable_missing_bottoms_and_unsupported_layers(tmp_path):
    net = caffe_pb.NetParameter()
    net.layer.add(name='data', type='Data').top.append('x')
    _add_layer(net, 'r1', 'ReLU', ['x'], ['y'])
    _add_layer(net, 'r2', 'ReLU', ['unknown'], ['z'])
    _add_layer(net, 'acc', 'Accuracy', ['y', 'label'], ['acc'])
    with pytest.warns(UserWarning, match='Skip the layer "acc".*Accuracy'):
        func = _load(tmp_path, net)
    assert [name for name, _, _ in func.layers] == ['r1', 'r2']
    x = _rand(2, 2)
    (y,) = _run(func, {'x': x}, ['y'])
    numpy.testing.assert_array_equal(y, numpy.maximum(x, 0))
    (y,) = _run(func, {'x': x, 'y': x}, ['y'], disable=['r1'])
    numpy.testing.assert_array_equal(y, x)
    with pytest.raises(KeyError, match='"z"'):
        _run(func, {'x': x}, ['z'])
    with pytest.raises(ValueError, match='train argument'):
        func(inputs={'x': x}, outputs=['y'], train=False)


def _bad_file(tmp_path, data):
    path = os.path.join(str(tmp_path), 'bad.caffemodel')
    with open(path, 'wb') as f:
        f.write(data)
    return path


def _valid_bytes():
    net = caffe_pb.NetParameter(name='n')
    _add_layer(net, 'fc', 'InnerProduct', ['x'], ['y'], [_rand(2, 3), _rand(2)])
    return net.SerializeToString()


@pytest.mark.parametrize(
    'data, match',
    [
        (b'', 'holds no layers'),
        (b'\x8f\xff\x00garbage', 'not a valid Caffe model'),
        (_valid_bytes()[:-5], 'not a valid Caffe model'),
        (numpy.random.RandomState(0).bytes(256), 'not a valid Caffe model'),
    ],
)
def test_invalid_files(tmp_path, data, match):
    path = _bad_file(tmp_path, data)
    with pytest.raises(ValueError, match=match) as info:
        L.caffe.CaffeFunction(path)
    assert 'CaffeFunction' in str(info.value)


def test_invalid_files_do_not_crash_the_interpreter(tmp_path):
    rng = numpy.random.RandomState(1)
    valid = _valid_bytes()
    paths = []
    for i in range(20):
        if i % 2:
            data = rng.bytes(rng.randint(1, 200))
        else:
            data = valid[: rng.randint(4, len(valid))]
        paths.append(os.path.join(str(tmp_path), 'bad{}.caffemodel'.format(i)))
        with open(paths[-1], 'wb') as f:
            f.write(data)
    script = (
        'import sys\n'
        'from chainerlite.links.caffe import CaffeFunction\n'
        'for path in sys.argv[1:]:\n'
        '    try:\n'
        '        CaffeFunction(path)\n'
        '    except (ValueError, RuntimeError):\n'
        '        pass\n'
        'print("survived")\n'
    )
    out = subprocess.run(
        [sys.executable, '-c', script] + paths, capture_output=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == b'survived'


def test_blob_size_mismatch(tmp_path):
    net = caffe_pb.NetParameter()
    layer = _add_layer(net, 'fc', 'InnerProduct', ['x'], ['y'])
    blob = layer.blobs.add()
    blob.shape.dim.extend([2, 10**12])  # claims far more than it holds
    blob.data.extend(range(6))
    layer.inner_product_param.bias_term = False
    with pytest.raises(ValueError, match='layer "fc".*6 values'):
        _load(tmp_path, net)


@pytest.mark.parametrize(
    'typ, field, name, value',
    [
        ('Pooling', 'pooling_param', 'pool', 2),
        ('LRN', 'lrn_param', 'norm_region', 1),
        ('Softmax', 'softmax_param', 'axis', 2),
        ('InnerProduct', 'inner_product_param', 'axis', 2),
    ],
)
def test_unsupported_configurations(tmp_path, typ, field, name, value):
    net = caffe_pb.NetParameter()
    layer = _add_layer(net, 'l', typ, ['x'], ['y'])
    setattr(getattr(layer, field), name, value)
    with pytest.raises(RuntimeError, match='CaffeFunction: layer "l"'):
        _load(tmp_path, net)


def test_missing_weight_blob(tmp_path):
    net = caffe_pb.NetParameter()
    _add_layer(
        net, 'conv', 'Convolution', ['x'], ['y']
    ).convolution_param.kernel_size.append(1)
    with pytest.raises(ValueError, match='weight blob'):
        _load(tmp_path, net)


def test_layer_name_clashing_with_an_attribute(tmp_path):
    net = caffe_pb.NetParameter()
    _add_layer(net, 'forward', 'InnerProduct', ['x'], ['y'], [_rand(2, 3), _rand(2)])
    with pytest.raises(ValueError, match='clashes'):
        _load(tmp_path, net)


def test_backward_through_the_loaded_network(tmp_path):
    net = caffe_pb.NetParameter()
    W, b = _rand(2, 3), _rand(2)
    _add_layer(net, 'fc', 'InnerProduct', ['x'], ['y'], [W, b])
    func = _load(tmp_path, net)
    func.cleargrads()
    x = chainerlite.Variable(_rand(4, 3))
    (y,) = func(inputs={'x': x}, outputs=['y'])
    chainerlite.functions.sum(y).backward()
    numpy.testing.assert_allclose(x.grad, numpy.tile(W.sum(axis=0), (4, 1)), rtol=1e-5)
    numpy.testing.assert_allclose(func['fc'].b.grad, [4, 4])


def test_grouped_weight_too_large(tmp_path):
    net = caffe_pb.NetParameter()
    conv = _add_layer(net, 'conv', 'Convolution', ['x'], ['y'], [_rand(2**17, 1, 1, 1)])
    conv.convolution_param.kernel_size.append(1)
    conv.convolution_param.group = 2**17  # 2**34 values once block-diagonal
    conv.convolution_param.bias_term = False
    with pytest.raises(ValueError, match='too large'):
        _load(tmp_path, net)


def test_link_errors_name_the_layer(tmp_path):
    net = caffe_pb.NetParameter()
    conv = _add_layer(net, 'conv', 'Convolution', ['x'], ['y'], [_rand(1, 1, 1, 1)])
    conv.convolution_param.kernel_size.append(1)
    conv.convolution_param.stride.append(0)
    conv.convolution_param.bias_term = False
    with pytest.raises(ValueError, match='CaffeFunction: layer "conv".*stride'):
        _load(tmp_path, net)


def test_zero_pooling_stride_is_refused_when_read(tmp_path):
    net = caffe_pb.NetParameter()
    pool = _add_layer(net, 'pool', 'Pooling', ['x'], ['y'], [])
    pool.pooling_param.kernel_size = 2
    pool.pooling_param.stride = 0
    with pytest.raises(ValueError, match='CaffeFunction: layer "pool".*stride 0'):
        _load(tmp_path, net)
