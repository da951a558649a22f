import numpy

from chainerlite import links
from chainerlite.links.model.vision import googlenet


def test_googlenet_every_layer():
    model = links.GoogLeNet(pretrained_model=None)
    assert type(model) is googlenet.GoogLeNet
    names = model.available_layers
    assert len(names) == 21 and names[-2:] == ['loss1_fc2', 'loss2_fc2']
    x = numpy.random.uniform(-1, 1, (1, 3, 224, 224)).astype(numpy.float32)
    out = model(x, layers=names)
    shapes = {name: out[name].shape[1:] for name in names}
    assert shapes == {
        'conv1': (64, 112, 112),
        'pool1': (64, 56, 56),
        'conv2_reduce': (64, 56, 56),
        'conv2': (192, 56, 56),
        'pool2': (192, 28, 28),
        'inception_3a': (256, 28, 28),
        'inception_3b': (480, 28, 28),
        'pool3': (480, 14, 14),
        'inception_4a': (512, 14, 14),
        'inception_4b': (512, 14, 14),
        'inception_4c': (512, 14, 14),
        'inception_4d': (528, 14, 14),
        'inception_4e': (832, 14, 14),
        'pool4': (832, 7, 7),
        'inception_5a': (832, 7, 7),
        'inception_5b': (1024, 7, 7),
        'pool5': (1024, 1, 1),
        'loss3_fc': (1000,),
        'prob': (1000,),
        'loss1_fc2': (1000,),
        'loss2_fc2': (1000,),
    }
    numpy.testing.assert_allclose(
        out['pool5'].array[:, :, 0, 0],
        out['inception_5b'].array.mean(axis=(2, 3)),
        rtol=1e-4,
    )
    # LRN as in Caffe: x / (1 + 1e-4 / 5 * sum of 5 neighbouring squares) ** 0.75
    pool = out['pool1'].array  # checked at its top-left pixel
    window = numpy.maximum(model.conv1(x).array, 0)[0, :, 0:3, 0:3].max(axis=(1, 2))
    squares = numpy.pad(window**2, 2)
    denom = (1 + 1e-4 / 5 * sum(squares[i : i + 64] for i in range(5))) ** 0.75
    numpy.testing.assert_allclose(pool[0, :, 0, 0], window / denom, rtol=1e-5)

    out = model.extract(
        [numpy.zeros((80, 60), numpy.uint8)], layers=['pool1'], size=None
    )
    assert out['pool1'].shape == (1, 64, 20, 15)


def test_googlenet_as_chainers_arguments_initializers_and_branches():
    import pytest

    model = links.GoogLeNet(pretrained_model=None)
    x = numpy.zeros((1, 3, 16, 16), numpy.float32)
    # the argument Chainer's GoogLeNet refuses is train (test is unknown)
    with pytest.raises(ValueError, match='train argument is not supported'):
        model(x, layers=['conv1'], train=False)
    with pytest.raises(TypeError, match='test'):
        model(x, layers=['conv1'], test=True)
    with pytest.raises(ValueError, match='train argument'):
        model.extract([numpy.zeros((8, 8, 3), numpy.uint8)], train=False)
    # the inception modules keep their default initializer (LeCunNormal,
    # whose draws pass LeCunUniform's bound), the other layers LeCunUniform
    w = model.inc3a.conv3.W.array
    bound = numpy.sqrt(3.0 / (96 * 9))
    assert abs(w).max() > bound
    assert abs(model.conv2.W.array).max() <= numpy.sqrt(3.0 / (64 * 9))
    # the auxiliary classifiers have no dropout, as in Chainer
    for name in ('loss1_fc2', 'loss2_fc2'):
        funcs = model.functions[name]
        assert len(funcs) == 6
        assert not any('dropout' in getattr(f, '__name__', '') for f in funcs)
