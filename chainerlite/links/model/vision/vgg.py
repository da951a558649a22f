"""VGG networks with 16 and 19 layers (Simonyan and Zisserman, 2014)."""

import collections

from chainerlite import initializers
from chainerlite.functions.activation.relu import relu
from chainerlite.functions.activation.softmax import softmax
from chainerlite.functions.noise.dropout import dropout
from chainerlite.functions.pooling.max_pooling_2d import max_pooling_2d
from chainerlite.links.connection.convolution_2d import Convolution2D
from chainerlite.links.connection.linear import Linear
from chainerlite.links.model.vision import _image
from chainerlite.links.model.vision import _layers
from chainerlite.serializers import npz

available = _image.available

_MEAN = (103.939, 116.779, 123.68)  # BGR, of the ILSVRC training images
_URL = 'http://www.robots.ox.ac.uk/%7Evgg/software/very_deep/caffe/'
# Convolutions per block, for each depth: blocks of 64, 128, 256, 512 and
# 512 channels, each followed by a 2x2 max pooling.
_BLOCKS = {16: (2, 2, 3, 3, 3), 19: (2, 2, 4, 4, 4)}
_CHANNELS = (64, 128, 256, 512, 512)


def _conv_names(n_layers):
    return [
        'conv{}_{}'.format(block + 1, i + 1)
        for block, count in enumerate(_BLOCKS[n_layers])
        for i in range(count)
    ]


def _pool(x):
    return max_pooling_2d(x, ksize=2)


class VGGLayers(_layers.PretrainedLayers):
    """A VGG network provided by the VGG team, optionally pre-trained.

    It has 13 (or 16) 3x3 convolutions in five blocks, each block followed
    by a 2x2 max pooling, then three fully connected layers (``fc6`` and
    ``fc7`` with ReLU and dropout, ``fc8``) and a softmax. Call it on a
    batch from :func:`prepare` (224x224 images), or use :meth:`extract` and
    :meth:`predict` on images.

    Args:
        pretrained_model (str): ``'auto'`` downloads the Caffe model of the
            VGG team once, converts it to
            ``$CHAINER_DATASET_ROOT/pfnet/chainer/models/VGG_ILSVRC_{16,19}_layers.npz``
            and loads it (later calls load that file); a path loads that
            ``.npz`` file; ``None`` initializes the weights randomly from
            ``Normal(0.01)`` and the biases to zero, as the paper did.
        n_layers (int): 16 or 19.


    """

    _mean = _MEAN
    _extract_layers = ['fc7']

    def __init__(self, pretrained_model='auto', n_layers=16):
        super().__init__()
        if n_layers not in _BLOCKS:
            raise ValueError(
                '{}: n_layers must be 16 or 19, not {!r}'.format(
                    type(self).__name__, n_layers
                )
            )
        self._n_layers = n_layers
        kwargs = _layers.initial_weights(pretrained_model, initializers.Normal(0.01))
        in_channels = 3
        with self.init_scope():
            for block, count in enumerate(_BLOCKS[n_layers]):
                for i in range(count):
                    conv = Convolution2D(
                        in_channels, _CHANNELS[block], 3, 1, 1, **kwargs
                    )
                    setattr(self, 'conv{}_{}'.format(block + 1, i + 1), conv)
                    in_channels = _CHANNELS[block]
            self.fc6 = Linear(512 * 7 * 7, 4096, **kwargs)
            self.fc7 = Linear(4096, 4096, **kwargs)
            self.fc8 = Linear(4096, 1000, **kwargs)
        name = 'VGG_ILSVRC_{}_layers'.format(n_layers)
        _layers.load(
            self,
            pretrained_model,
            name + '.npz',
            _layers.download_caffemodel(
                type(self).__name__,
                _URL + name + '.caffemodel',
                name + '.npz',
                lambda caffemodel, path: VGGLayers.convert_caffemodel_to_npz(
                    caffemodel, path, n_layers
                ),
            ),
        )

    @property
    def functions(self):
        """collections.OrderedDict: Layer name -> callables computing it."""
        layers = []
        for block, count in enumerate(_BLOCKS[self._n_layers]):
            for i in range(count):
                name = 'conv{}_{}'.format(block + 1, i + 1)
                layers.append((name, [getattr(self, name), relu]))
            layers.append(('pool{}'.format(block + 1), [_pool]))
        layers += [
            ('fc6', [self.fc6, relu, dropout]),
            ('fc7', [self.fc7, relu, dropout]),
            ('fc8', [self.fc8]),
            ('prob', [softmax]),
        ]
        return collections.OrderedDict(layers)

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel, path_npz, n_layers=16):
        """Converts the VGG team's Caffe model to an ``.npz`` for this class.

        Args:
            path_caffemodel (str): Path of the ``.caffemodel`` file.
            path_npz (str): Path of the ``.npz`` file written.
            n_layers (int): 16 or 19 (subclasses fix it).

        """
        model = VGGLayers(pretrained_model=None, n_layers=n_layers)
        _transfer(_layers.read_caffemodel(path_caffemodel), model)
        npz.save_npz(path_npz, model, compression=False)


class VGG16Layers(VGGLayers):
    """VGG with 16 layers; see :class:`VGGLayers`.

    Args:
        pretrained_model (str): As in :class:`VGGLayers`.

    """

    def __init__(self, pretrained_model='auto'):
        super().__init__(pretrained_model, 16)

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel, path_npz):
        """Converts ``VGG_ILSVRC_16_layers.caffemodel`` to an ``.npz``."""
        super().convert_caffemodel_to_npz(path_caffemodel, path_npz, 16)


class VGG19Layers(VGGLayers):
    """VGG with 19 layers; see :class:`VGGLayers`.

    Args:
        pretrained_model (str): As in :class:`VGGLayers`.

    """

    def __init__(self, pretrained_model='auto'):
        super().__init__(pretrained_model, 19)

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel, path_npz):
        """Converts ``VGG_ILSVRC_19_layers.caffemodel`` to an ``.npz``."""
        super().convert_caffemodel_to_npz(path_caffemodel, path_npz, 19)


prepare = _image.prepare_for(_MEAN, 'VGG', __name__)


def _transfer(src, dst):
    # The Caffe model's layers have the names of this model's links.
    for name in _conv_names(dst._n_layers) + ['fc6', 'fc7', 'fc8']:
        _layers.copy_convolution(getattr(dst, name), getattr(src, name))
