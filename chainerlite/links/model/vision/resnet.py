"""Residual networks with 50, 101 and 152 layers (He et al., 2015)."""

import collections
import os
import warnings

from chainerlite import initializers
from chainerlite import link
from chainerlite.functions.activation.relu import relu
from chainerlite.functions.activation.softmax import softmax
from chainerlite.functions.array.reshape import reshape
from chainerlite.functions.pooling.average_pooling_2d import average_pooling_2d
from chainerlite.functions.pooling.max_pooling_2d import max_pooling_2d
from chainerlite.links.connection.convolution_2d import Convolution2D
from chainerlite.links.connection.linear import Linear
from chainerlite.links.model.vision import _image
from chainerlite.links.model.vision import _layers
from chainerlite.links.normalization.batch_normalization import BatchNormalization
from chainerlite.serializers import npz

available = _image.available

_MEAN = (103.063, 115.903, 123.152)  # BGR, of MSRA's mean image
# Bottleneck blocks in res2 ... res5, for each depth.
_BLOCKS = {50: (3, 4, 6, 3), 101: (3, 4, 23, 3), 152: (3, 8, 36, 3)}


class BottleneckA(link.Chain):
    """The first bottleneck of a stage: it changes channels and stride.

    Three convolutions (1x1, 3x3, 1x1), each followed by batch
    normalization, with ReLU after the first two, are added to a projection
    of the input (a strided 1x1 convolution and batch normalization); the
    sum is rectified.

    Args:
        in_channels (int): Input channels.
        mid_channels (int): Channels of the 3x3 convolution.
        out_channels (int): Output channels.
        stride (int or pair of ints): Stride of the block.
        initialW: Initializer of the convolution weights.
        downsample_fb (bool): ``False`` strides the first 1x1 convolution
            (MSRA's Caffe models); ``True`` strides the 3x3 convolution
            (Facebook's fb.resnet.torch), which is more accurate.

    """

    def __init__(
        self,
        in_channels,
        mid_channels,
        out_channels,
        stride=2,
        initialW=None,
        downsample_fb=False,
    ):
        super().__init__()
        stride_1x1, stride_3x3 = (1, stride) if downsample_fb else (stride, 1)
        with self.init_scope():
            self.conv1 = Convolution2D(
                in_channels,
                mid_channels,
                1,
                stride_1x1,
                0,
                initialW=initialW,
                nobias=True,
            )
            self.bn1 = BatchNormalization(mid_channels)
            self.conv2 = Convolution2D(
                mid_channels,
                mid_channels,
                3,
                stride_3x3,
                1,
                initialW=initialW,
                nobias=True,
            )
            self.bn2 = BatchNormalization(mid_channels)
            self.conv3 = Convolution2D(
                mid_channels, out_channels, 1, 1, 0, initialW=initialW, nobias=True
            )
            self.bn3 = BatchNormalization(out_channels)
            self.conv4 = Convolution2D(
                in_channels, out_channels, 1, stride, 0, initialW=initialW, nobias=True
            )
            self.bn4 = BatchNormalization(out_channels)

    def forward(self, x):
        """Applies the block to ``x`` of shape ``(n, in_channels, h, w)``."""
        h = relu(self.bn1(self.conv1(x)))
        h = relu(self.bn2(self.conv2(h)))
        h = self.bn3(self.conv3(h))
        return relu(h + self.bn4(self.conv4(x)))


class BottleneckB(link.Chain):
    """A bottleneck that keeps the shape: its input is added unchanged.

    Args:
        in_channels (int): Input (and output) channels.
        mid_channels (int): Channels of the 3x3 convolution.
        initialW: Initializer of the convolution weights.

    """

    def __init__(self, in_channels, mid_channels, initialW=None):
        super().__init__()
        with self.init_scope():
            self.conv1 = Convolution2D(
                in_channels, mid_channels, 1, 1, 0, initialW=initialW, nobias=True
            )
            self.bn1 = BatchNormalization(mid_channels)
            self.conv2 = Convolution2D(
                mid_channels, mid_channels, 3, 1, 1, initialW=initialW, nobias=True
            )
            self.bn2 = BatchNormalization(mid_channels)
            self.conv3 = Convolution2D(
                mid_channels, in_channels, 1, 1, 0, initialW=initialW, nobias=True
            )
            self.bn3 = BatchNormalization(in_channels)

    def forward(self, x):
        """Applies the block to ``x`` of shape ``(n, in_channels, h, w)``."""
        h = relu(self.bn1(self.conv1(x)))
        h = relu(self.bn2(self.conv2(h)))
        return relu(self.bn3(self.conv3(h)) + x)


def _n_layers(n_layers, kwargs):
    # BuildingBlock's n_layers, or its deprecated name n_layer
    if 'n_layer' in kwargs:
        warnings.warn(
            'BuildingBlock: n_layer is deprecated; use n_layers',
            DeprecationWarning,
            stacklevel=3,
        )
        n_layers = kwargs.pop('n_layer')
    if kwargs:
        raise TypeError(
            'BuildingBlock: unexpected keyword arguments {}'.format(sorted(kwargs))
        )
    if n_layers is None:
        raise TypeError('BuildingBlock: n_layers is required')
    return n_layers


class BuildingBlock(link.Chain):
    """A stage of a residual network: one BottleneckA, then BottleneckBs.

    The children are ``a``, ``b1``, ``b2``, ...; ``_forward`` lists their
    names in the order they are applied.

    Args:
        n_layers (int): Number of bottlenecks (``n_layer=``, its
            deprecated name, is taken too).
        in_channels (int): Input channels (``None``: inferred at the first
            call).
        mid_channels (int): Channels inside the bottlenecks.
        out_channels (int): Output channels.
        stride (int or pair of ints): Stride of the first bottleneck.
        initialW: Initializer of the convolution weights.
        downsample_fb (bool): Where the first bottleneck strides; see
            :class:`BottleneckA`.

    Raises:
        TypeError: If ``n_layers`` is missing or an unknown keyword is
            given.

    """

    def __init__(
        self,
        n_layers=None,
        in_channels=None,
        mid_channels=None,
        out_channels=None,
        stride=None,
        initialW=None,
        downsample_fb=None,
        **kwargs,
    ):
        n_layers = _n_layers(n_layers, kwargs)
        super().__init__()
        with self.init_scope():
            self.a = BottleneckA(
                in_channels,
                mid_channels,
                out_channels,
                stride,
                initialW,
                bool(downsample_fb),
            )
            self._forward = ['a']
            for i in range(1, n_layers):
                name = 'b{}'.format(i)
                setattr(self, name, BottleneckB(out_channels, mid_channels, initialW))
                self._forward.append(name)

    def forward(self, x):
        """Applies the bottlenecks in turn."""
        for name in self._forward:
            x = getattr(self, name)(x)
        return x


def _max_pooling(x):
    return max_pooling_2d(x, ksize=3, stride=2)


def _global_average_pooling(x):
    n, channels, height, width = x.shape
    return reshape(average_pooling_2d(x, (height, width), stride=1), (n, channels))


class ResNetLayers(_layers.PretrainedLayers):
    """A residual network provided by MSRA, optionally pre-trained.

    A 7x7 convolution with batch normalization and ReLU, a 3x3 max pooling,
    four stages of bottlenecks (``res2`` ... ``res5``, see
    :class:`BuildingBlock`), a global average pooling, a fully connected
    layer ``fc6`` and a softmax. Call it on a batch from :func:`prepare`
    (224x224 images), or use :meth:`extract` and :meth:`predict` on images.

    Args:
        pretrained_model (str): ``'auto'`` loads
            ``ResNet-{n_layers}-model.npz`` from
            ``$CHAINER_DATASET_ROOT/pfnet/chainer/models``, converting it
            first from ``ResNet-{n_layers}-model.caffemodel`` in the same
            folder if needed (MSRA's licence asks for a manual download:
            https://github.com/KaimingHe/deep-residual-networks); a path
            loads that ``.npz`` file; ``None`` initializes the weights of
            the convolutions randomly with ``HeNormal`` (``fc6`` keeps
            ``Linear``'s default, as in Chainer).
        n_layers (int): 50, 101 or 152.
        downsample_fb (bool): Where the first bottleneck of a stage strides;
            see :class:`BottleneckA`.


    """

    _mean = _MEAN
    _extract_layers = ['pool5']

    def __init__(self, pretrained_model, n_layers, downsample_fb=False):
        super().__init__()
        if n_layers not in _BLOCKS:
            raise ValueError(
                '{}: n_layers must be 50, 101 or 152, not {!r}'.format(
                    type(self).__name__, n_layers
                )
            )
        initialW = _layers.initial_weights(
            pretrained_model, initializers.HeNormal(scale=1.0)
        )['initialW']
        blocks = _BLOCKS[n_layers]
        with self.init_scope():
            self.conv1 = Convolution2D(3, 64, 7, 2, 3, initialW=initialW)
            self.bn1 = BatchNormalization(64)
            self.res2 = BuildingBlock(
                blocks[0], 64, 64, 256, 1, initialW, downsample_fb
            )
            self.res3 = BuildingBlock(
                blocks[1], 256, 128, 512, 2, initialW, downsample_fb
            )
            self.res4 = BuildingBlock(
                blocks[2], 512, 256, 1024, 2, initialW, downsample_fb
            )
            self.res5 = BuildingBlock(
                blocks[3], 1024, 512, 2048, 2, initialW, downsample_fb
            )
            # as Chainer's: the classifier keeps Linear's default initializer
            self.fc6 = Linear(2048, 1000)
        name = 'ResNet-{}-model'.format(n_layers)

        def make_npz(path):
            caffemodel = _layers.models_path(name + '.caffemodel')
            if not os.path.exists(caffemodel):
                raise OSError(
                    '{}: the pre-trained caffemodel {} does not exist. Download '
                    'it from https://github.com/KaimingHe/deep-residual-networks '
                    'and place it there.'.format(type(self).__name__, caffemodel)
                )
            ResNetLayers.convert_caffemodel_to_npz(caffemodel, path, n_layers)

        _layers.load(self, pretrained_model, name + '.npz', make_npz)

    @property
    def functions(self):
        """collections.OrderedDict: Layer name -> callables computing it."""
        return collections.OrderedDict(
            [
                ('conv1', [self.conv1, self.bn1, relu]),
                ('pool1', [_max_pooling]),
                ('res2', [self.res2]),
                ('res3', [self.res3]),
                ('res4', [self.res4]),
                ('res5', [self.res5]),
                ('pool5', [_global_average_pooling]),
                ('fc6', [self.fc6]),
                ('prob', [softmax]),
            ]
        )

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel, path_npz, n_layers=50):
        """Converts MSRA's Caffe model to an ``.npz`` for this class.

        Args:
            path_caffemodel (str): Path of ``ResNet-{n_layers}-model.caffemodel``.
            path_npz (str): Path of the ``.npz`` file written.
            n_layers (int): 50, 101 or 152 (subclasses fix it).

        """
        model = ResNetLayers(None, n_layers)
        _transfer(_layers.read_caffemodel(path_caffemodel), model, n_layers)
        npz.save_npz(path_npz, model, compression=False)


class ResNet50Layers(ResNetLayers):
    """ResNet with 50 layers; see :class:`ResNetLayers`.

    Args:
        pretrained_model (str): As in :class:`ResNetLayers`.
        downsample_fb (bool): As in :class:`ResNetLayers`.

    """

    def __init__(self, pretrained_model='auto', downsample_fb=False):
        super().__init__(pretrained_model, 50, downsample_fb)

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel, path_npz):
        """Converts ``ResNet-50-model.caffemodel`` to an ``.npz``."""
        super().convert_caffemodel_to_npz(path_caffemodel, path_npz, 50)


class ResNet101Layers(ResNetLayers):
    """ResNet with 101 layers; see :class:`ResNetLayers`.

    Args:
        pretrained_model (str): As in :class:`ResNetLayers`.
        downsample_fb (bool): As in :class:`ResNetLayers`.

    """

    def __init__(self, pretrained_model='auto', downsample_fb=False):
        super().__init__(pretrained_model, 101, downsample_fb)

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel, path_npz):
        """Converts ``ResNet-101-model.caffemodel`` to an ``.npz``."""
        super().convert_caffemodel_to_npz(path_caffemodel, path_npz, 101)


class ResNet152Layers(ResNetLayers):
    """ResNet with 152 layers; see :class:`ResNetLayers`.

    Args:
        pretrained_model (str): As in :class:`ResNetLayers`.
        downsample_fb (bool): As in :class:`ResNetLayers`.

    """

    def __init__(self, pretrained_model='auto', downsample_fb=False):
        super().__init__(pretrained_model, 152, downsample_fb)

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel, path_npz):
        """Converts ``ResNet-152-model.caffemodel`` to an ``.npz``."""
        super().convert_caffemodel_to_npz(path_caffemodel, path_npz, 152)


prepare = _image.prepare_for(_MEAN, 'ResNet', __name__)


def _caffe_block_names(n_layers):
    """Caffe's names of the bottlenecks of MSRA's models, per stage.

    ResNet-50 letters every block (``res3a``, ``res3b``, ...); the deeper
    models letter those of ``res2`` and ``res5`` but number the others
    after the first (``res4a``, ``res4b1``, ``res4b2``, ...).

    Returns:
        list of list of str: For ``res2`` ... ``res5``, e.g. ``'res2a'``.

    """
    names = []
    for stage, count in enumerate(_BLOCKS[n_layers], 2):
        letters = n_layers == 50 or stage in (2, 5)
        names.append(
            [
                'res{}{}'.format(
                    stage, chr(ord('a') + i) if letters or i == 0 else 'b{}'.format(i)
                )
                for i in range(count)
            ]
        )
    return names


def _transfer(src, dst, n_layers):
    _layers.copy_convolution(dst.conv1, src.conv1)
    _copy_bn(dst.bn1, src, 'conv1', prefix='_')
    stages = (dst.res2, dst.res3, dst.res4, dst.res5)
    for stage, names in zip(stages, _caffe_block_names(n_layers)):
        for block_name, caffe_name in zip(stage._forward, names):
            block = getattr(stage, block_name)
            branches = ['2a', '2b', '2c'] + (['1'] if block_name == 'a' else [])
            for i, branch in enumerate(branches, 1):
                layer = '{}_branch{}'.format(caffe_name[3:], branch)
                conv = getattr(block, 'conv{}'.format(i))
                _layers.copy_convolution(conv, getattr(src, 'res' + layer))
                _copy_bn(getattr(block, 'bn{}'.format(i)), src, layer)
    _layers.copy_convolution(dst.fc6, src.fc1000)


def _copy_bn(dst, src, layer, prefix=''):
    # Caffe splits batch normalization into bn<layer> and scale<layer>
    # (bn_conv1 and scale_conv1 for the first layer).
    _layers.copy_batch_normalization(
        dst, getattr(src, 'bn' + prefix + layer), getattr(src, 'scale' + prefix + layer)
    )
