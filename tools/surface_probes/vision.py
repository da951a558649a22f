"""The pre-trained vision models built without weights
(``pretrained_model=None``): their layers, parameter shapes and first
draws, ``available_layers`` and ``functions`` in order, a forward pass of a
small image through the first layers (``layers=``, the removed ``test``
and ``train`` arguments), the building blocks of ResNet and the module
helpers. VGG is built once (it holds 138 million weights)."""

import importlib
import warnings

import numpy

from tools.surface_probes import _values

_try = _values.attempt


def _module(c, name):
    return importlib.import_module(c.chainer.__name__ + '.links.model.vision.' + name)


def _image(n=1, size=32):
    return (
        numpy.random.RandomState(0)
        .uniform(-1, 1, (n, 3, size, size))
        .astype(numpy.float32)
    )


def _layout(model):
    shapes = {n: list(p.shape) for n, p in model.namedparams()}
    return [len(shapes), sum(int(numpy.prod(s)) for s in shapes.values()), shapes]


def _structure(model):
    """Parameters, the layers in order and how many callables each has."""
    return [
        _layout(model),
        model.available_layers,
        [len(v) for v in model.functions.values()],
    ]


def _outputs(activations):
    return {k: [list(v.shape), str(v.dtype)] for k, v in activations.items()}


def resnet50(c):
    L = c.L
    numpy.random.seed(40)
    m = L.ResNet50Layers(pretrained_model=None)
    out = [
        _structure(m),
        list(m.functions) == m.available_layers,
        m.conv1.W.array,
        m.res2.a.conv1.W.array[:4],
        m.fc6.W.array[:2],
        m.bn1.avg_var,
        [n for n, _ in m.res3.namedlinks(skipself=True)][:6],
    ]
    x = _image()
    with c.chainer.using_config('train', False):
        act = m(x, layers=['conv1', 'pool1', 'res2'])
    out.append(_outputs(act))
    out.append(act['pool1'].array)
    out.append(_try(lambda: m(x, layers=['pool1'], test=True)))
    out.append(_try(lambda: m(x, layers=['pool1'], other=True)))
    out.append(_try(lambda: _outputs(m.forward(x, layers=[]))))
    with c.chainer.using_config('train', False):
        act = m(x, layers=['pool5', 'fc6', 'prob'])
    # deep sums: five significant digits (the two libraries add in other
    # orders)
    out.append([float('%.5g' % act[k].array.sum()) for k in ('pool5', 'fc6', 'prob')])
    act = m(_image(2, 32), layers=['conv1'])
    out.append([act['conv1'].array, m.bn1.avg_mean, m.bn1.avg_var])
    return out


def resnet_depths_and_downsampling(c):
    L = c.L
    resnet = _module(c, 'resnet')
    out = []
    for cls in (L.ResNet101Layers, L.ResNet152Layers):
        m = cls(pretrained_model=None)
        out.append([len(m.res4._forward), len(list(m.params())), m.available_layers])
    m = L.ResNet50Layers(pretrained_model=None, downsample_fb=True)
    out.append([m.res3.a.conv1.stride, m.res3.a.conv2.stride, m.res3.a.conv4.stride])
    m = L.ResNet50Layers(pretrained_model=None)
    out.append([m.res3.a.conv1.stride, m.res3.a.conv2.stride])
    out.append(_try(lambda: resnet.ResNetLayers(None, 34)))
    out.append(
        [
            hasattr(cls, 'convert_caffemodel_to_npz')
            for cls in (L.ResNet50Layers, L.VGG16Layers, L.GoogLeNet)
        ]
    )
    return out


def resnet_blocks(c):
    resnet = _module(c, 'resnet')
    numpy.random.seed(41)
    a = resnet.BottleneckA(4, 2, 6, stride=2)
    b = resnet.BottleneckB(6, 3)
    block = resnet.BuildingBlock(3, 4, 2, 6, 1)
    x = _image(2, 8)[:, :1].repeat(4, axis=1)
    out = [
        _layout(a),
        _layout(b),
        _layout(block),
        block._forward,
        a(x).array,
        b(a(x)).array,
        block(x).array,
        [a.conv1.stride, a.conv2.stride, a.conv4.stride],
    ]
    fb = resnet.BottleneckA(4, 2, 6, stride=2, downsample_fb=True)
    out.append([fb.conv1.stride, fb.conv2.stride])
    numpy.random.seed(42)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        old = resnet.BuildingBlock(
            n_layer=2, in_channels=4, mid_channels=2, out_channels=6, stride=1
        )
    out.append(old._forward)
    out.append([w.category.__name__ for w in caught])
    out.append(_layout(resnet.BuildingBlock(1, 2, 2, 2, 1, initialW=c.I.One())))
    return out


def googlenet(c):
    L = c.L
    numpy.random.seed(43)
    m = L.GoogLeNet(pretrained_model=None)
    out = [_structure(m), m.conv1.W.array, m.inc3a.conv1.W.array, m.loss3_fc.b.array]
    x = _image(1, 40)
    with c.chainer.using_config('train', False):
        act = m(x, layers=['conv1', 'pool1', 'conv2_reduce', 'pool2'])
    out.append(_outputs(act))
    out.append(act['pool1'].array)
    out.append(_try(lambda: m(x, layers=['conv1'], train=False)))
    out.append(_try(lambda: m(x, layers=['conv1'], test=True)))
    return out


def vgg16(c):
    L = c.L
    vgg = _module(c, 'vgg')
    numpy.random.seed(44)
    m = L.VGG16Layers(pretrained_model=None)
    out = [_structure(m), m.conv1_1.W.array, m.conv1_1.b.array, m.conv2_1.W.array[:2]]
    x = _image(1, 16)
    with c.chainer.using_config('train', False):
        act = m(x, layers=['conv1_1', 'pool1', 'conv2_2'])
    out.append(_outputs(act))
    out.append(act['pool1'].array)
    out.append(_try(lambda: m(x, layers=['pool1'], test=True)))
    out.append(_try(lambda: vgg.VGGLayers(None, 17)))
    return out


def prepare_functions(c):
    out = []
    for name in ('resnet', 'vgg', 'googlenet'):
        module = _module(c, name)
        out.append([hasattr(module, 'prepare'), hasattr(module, 'available')])
    return out


def removed_arguments_of_extract(c):
    L = c.L
    out = []
    for make in (
        lambda: L.GoogLeNet(pretrained_model=None),
        lambda: L.ResNet50Layers(pretrained_model=None),
    ):
        m = make()
        for kw in ({'volatile': True}, {'test': True}, {'train': False}, {'other': 1}):
            out.append(_try(lambda m=m, kw=kw: m.extract([], **kw)))
    return out


PROBES = _values.probes(globals(), __name__)
