import numpy
import pytest

from chainerlite import links
from chainerlite.links.model.vision import resnet
from chainerlite.serializers import npz


def test_resnet50_every_layer_roundtrip_and_caffe_transfer(
    tmp_path, fake_caffe, zero_init
):
    model = links.ResNet50Layers(pretrained_model=None)
    assert set(zero_init) == {('HeNormal', 1.0)}
    assert model.available_layers == [
        'conv1',
        'pool1',
        'res2',
        'res3',
        'res4',
        'res5',
        'pool5',
        'fc6',
        'prob',
    ]
    assert model.res3.a.conv1.stride == (2, 2) and model.res3.a.conv2.stride == (1, 1)
    resnet._transfer(fake_caffe, model, 50)  # every layer gets its own value
    block = model.res4.b5  # Caffe's res4f
    assert (block.conv3.W.array == fake_caffe.value('res4f_branch2c')).all()
    assert (block.bn3.avg_mean == fake_caffe.value('bn4f_branch2c') + 0.25).all()
    assert (block.bn3.avg_var == fake_caffe.value('bn4f_branch2c') + 0.75).all()
    assert (block.bn3.gamma.array == fake_caffe.value('scale4f_branch2c')).all()
    assert (block.bn3.beta.array == fake_caffe.value('scale4f_branch2c') + 0.125).all()
    assert (model.res3.a.conv4.W.array == fake_caffe.value('res3a_branch1')).all()
    assert (model.res3.a.bn4.gamma.array == fake_caffe.value('scale3a_branch1')).all()
    assert (model.bn1.avg_var == fake_caffe.value('bn_conv1') + 0.75).all()
    assert (model.conv1.b.array == fake_caffe.value('conv1') + 0.5).all()
    assert (model.fc6.b.array == fake_caffe.value('fc1000') + 0.5).all()
    assert len(fake_caffe.names) == 3 + 16 * 9 + 4 * 3 + 1

    x = numpy.random.uniform(-1, 1, (1, 3, 64, 64)).astype(numpy.float32)
    out = model(x, layers=model.available_layers)
    shapes = {name: out[name].shape for name in out}
    assert shapes == {
        'conv1': (1, 64, 32, 32),
        'pool1': (1, 64, 16, 16),
        'res2': (1, 256, 16, 16),
        'res3': (1, 512, 8, 8),
        'res4': (1, 1024, 4, 4),
        'res5': (1, 2048, 2, 2),
        'pool5': (1, 2048),
        'fc6': (1, 1000),
        'prob': (1, 1000),
    }
    numpy.testing.assert_allclose(
        out['pool5'].array, out['res5'].array.mean(axis=(2, 3)), rtol=1e-4, atol=1e-5
    )

    path = str(tmp_path / 'resnet50.npz')
    npz.save_npz(path, model)
    loaded = resnet.ResNet50Layers(pretrained_model=path, downsample_fb=True)
    assert loaded.res3.a.conv1.stride == (1, 1) and loaded.res3.a.conv2.stride == (2, 2)
    numpy.testing.assert_array_equal(
        loaded.res5.b2.bn2.avg_mean, model.res5.b2.bn2.avg_mean
    )
    numpy.testing.assert_array_equal(
        loaded.res2.a.conv4.W.array, model.res2.a.conv4.W.array
    )

    copied = model.copy()
    assert copied.conv1 is copied.functions['conv1'][0]
    assert copied.res2.a is getattr(copied.res2, copied.res2._forward[0])


@pytest.mark.parametrize(
    'cls, n_layers, blocks, caffe_names',
    [
        (
            links.ResNet101Layers,
            101,
            (3, 4, 23, 3),
            ['res2c_branch2a', 'res3b3_branch2a', 'res4b22_branch2c', 'res5c_branch2b'],
        ),
        (
            links.ResNet152Layers,
            152,
            (3, 8, 36, 3),
            ['res2b_branch2a', 'res3b7_branch2a', 'res4b35_branch2c', 'res5a_branch1'],
        ),
    ],
)
def test_deep_resnets(cls, n_layers, blocks, caffe_names, fake_caffe, zero_init):
    model = cls(pretrained_model=None)
    stages = (model.res2, model.res3, model.res4, model.res5)
    assert tuple(len(stage._forward) for stage in stages) == blocks
    x = numpy.random.uniform(-1, 1, (1, 3, 32, 32)).astype(numpy.float32)
    with numpy.errstate(divide='ignore', invalid='ignore'):
        out = model(x, layers=['res4', 'pool5'])
    assert out['res4'].shape == (1, 1024, 2, 2) and out['pool5'].shape == (1, 2048)
    resnet._transfer(fake_caffe, model, n_layers)
    for name in caffe_names:
        assert name in fake_caffe.names
    assert 'res4b' not in fake_caffe.names and 'res4w_branch2a' not in fake_caffe.names


def test_fc6_keeps_linears_default_initializer():
    # as Chainer's: HeNormal for the convolutions only; fc6 draws from
    # LeCunNormal (standard deviation sqrt(1 / 2048), not sqrt(2 / 2048))
    numpy.random.seed(0)
    model = resnet.ResNet50Layers(pretrained_model=None)
    assert model.fc6.W.array.std() == pytest.approx(numpy.sqrt(1 / 2048), rel=0.02)
    assert model.conv1.W.array.std() == pytest.approx(
        numpy.sqrt(2 / (3 * 49)), rel=0.05
    )


def test_resnet_bad_depth():
    with pytest.raises(
        ValueError, match='ResNetLayers: n_layers must be 50, 101 or 152'
    ):
        resnet.ResNetLayers(None, 34)


def test_auto_converts_a_caffemodel_in_the_dataset_root(
    tmp_path, monkeypatch, fake_caffe, zero_init
):
    from chainerlite.dataset import download
    from chainerlite.links.model.vision import _layers

    monkeypatch.setattr(download, '_dataset_root', str(tmp_path))
    models = tmp_path / 'pfnet' / 'chainer' / 'models'
    models.mkdir(parents=True)
    (models / 'ResNet-50-model.caffemodel').write_bytes(b'')
    read = []
    monkeypatch.setattr(
        _layers, 'read_caffemodel', lambda path: read.append(path) or fake_caffe
    )
    model = resnet.ResNet50Layers()
    assert read == [str(models / 'ResNet-50-model.caffemodel')]
    assert (models / 'ResNet-50-model.npz').exists()
    assert (model.res5.b2.conv2.W.array == fake_caffe.value('res5c_branch2b')).all()
    assert (model.bn1.avg_mean == fake_caffe.value('bn_conv1') + 0.25).all()


def test_building_block_arguments_as_chainer():
    # Chainer 7.8.1: n_layers, every argument by keyword, n_layer deprecated
    block = resnet.BuildingBlock(
        n_layers=3, in_channels=4, mid_channels=2, out_channels=8, stride=2
    )
    assert block._forward == ['a', 'b1', 'b2']
    x = numpy.ones((1, 4, 6, 6), numpy.float32)
    assert block(x).shape == (1, 8, 3, 3)
    with pytest.warns(DeprecationWarning, match='n_layers'):
        old = resnet.BuildingBlock(
            in_channels=4, mid_channels=2, out_channels=8, stride=1, n_layer=2
        )
    assert old._forward == ['a', 'b1']
    with pytest.raises(TypeError, match='n_layers is required'):
        resnet.BuildingBlock(in_channels=4, mid_channels=2, out_channels=8)
    with pytest.raises(TypeError, match='unexpected keyword'):
        resnet.BuildingBlock(2, 4, 2, 8, 1, n_units=3)
