"""GoogLeNet (Szegedy et al., 2014), as trained by the BVLC."""

import collections

from chainerlite import initializers
from chainerlite.functions.activation.relu import relu
from chainerlite.functions.activation.softmax import softmax
from chainerlite.functions.noise.dropout import dropout
from chainerlite.functions.normalization.local_response_normalization import (
    local_response_normalization,
)
from chainerlite.functions.pooling.average_pooling_2d import average_pooling_2d
from chainerlite.functions.pooling.max_pooling_2d import max_pooling_2d
from chainerlite.links.connection.convolution_2d import Convolution2D
from chainerlite.links.connection.inception import Inception
from chainerlite.links.connection.linear import Linear
from chainerlite.links.model.vision import _image
from chainerlite.links.model.vision import _layers
from chainerlite.serializers import npz

available = _image.available

_MEAN = (104.0, 117.0, 123.0)  # BGR
_URL = 'http://dl.caffe.berkeleyvision.org/bvlc_googlenet.caffemodel'
# Inception modules: (link name, layer name, in_channels, out1, proj3, out3,
# proj5, out5, proj_pool).
_INCEPTIONS = (
    ('inc3a', 'inception_3a', 192, 64, 96, 128, 16, 32, 32),
    ('inc3b', 'inception_3b', 256, 128, 128, 192, 32, 96, 64),
    ('inc4a', 'inception_4a', 480, 192, 96, 208, 16, 48, 64),
    ('inc4b', 'inception_4b', 512, 160, 112, 224, 24, 64, 64),
    ('inc4c', 'inception_4c', 512, 128, 128, 256, 24, 64, 64),
    ('inc4d', 'inception_4d', 512, 112, 144, 288, 32, 64, 64),
    ('inc4e', 'inception_4e', 528, 256, 160, 320, 32, 128, 128),
    ('inc5a', 'inception_5a', 832, 256, 160, 320, 32, 128, 128),
    ('inc5b', 'inception_5b', 832, 384, 192, 384, 48, 128, 128),
)
# Caffe's names of the parts of an inception module, by child link.
_INCEPTION_PARTS = (
    ('conv1', '1x1'),
    ('proj3', '3x3_reduce'),
    ('conv3', '3x3'),
    ('proj5', '5x5_reduce'),
    ('conv5', '5x5'),
    ('projp', 'pool_proj'),
)
# The other layers: link name -> Caffe's name.
_CAFFE_NAMES = (
    ('conv1', 'conv1/7x7_s2'),
    ('conv2_reduce', 'conv2/3x3_reduce'),
    ('conv2', 'conv2/3x3'),
    ('loss1_conv', 'loss1/conv'),
    ('loss1_fc1', 'loss1/fc'),
    ('loss1_fc2', 'loss1/classifier'),
    ('loss2_conv', 'loss2/conv'),
    ('loss2_fc1', 'loss2/fc'),
    ('loss2_fc2', 'loss2/classifier'),
    ('loss3_fc', 'loss3/classifier'),
)


def _max_pooling(x):
    return max_pooling_2d(x, ksize=3, stride=2)


def _lrn(x):
    # Caffe's LRN divides alpha by the window size; Chainer's does not.
    return local_response_normalization(x, n=5, k=1, alpha=1e-4 / 5)


def _average_pooling_5x5(x):
    return average_pooling_2d(x, ksize=5, stride=3)


def _average_pooling_7x7(x):
    return average_pooling_2d(x, ksize=7, stride=1)


def _dropout_04(x):
    return dropout(x, ratio=0.4)


class GoogLeNet(_layers.PretrainedLayers):
    """GoogLeNet provided by the BVLC, optionally pre-trained.

    Convolutions, nine inception modules and a linear classifier
    (``loss3_fc``) with softmax (``prob``), plus the two auxiliary
    classifiers used in training, ``loss1_fc2`` (on ``inception_4a``) and
    ``loss2_fc2`` (on ``inception_4d``). Call it on a batch from
    :func:`prepare` (224x224 images), or use :meth:`extract` and
    :meth:`predict` on images.

    Args:
        pretrained_model (str): ``'auto'`` downloads BVLC's Caffe model
            once, converts it to
            ``$CHAINER_DATASET_ROOT/pfnet/chainer/models/bvlc_googlenet.npz``
            and loads it (later calls load that file); a path loads that
            ``.npz`` file; ``None`` initializes the weights randomly with
            ``LeCunUniform`` (those of the inception modules with their
            default, ``LeCunNormal``) and the biases to zero.


    """

    _mean = _MEAN
    _extract_layers = ['pool5']
    _branches = {'loss1_fc2': 'inception_4a', 'loss2_fc2': 'inception_4d'}
    _removed = 'train'

    def __init__(self, pretrained_model='auto'):
        super().__init__()
        kwargs = _layers.initial_weights(
            pretrained_model, initializers.LeCunUniform(scale=1.0)
        )
        with self.init_scope():
            self.conv1 = Convolution2D(3, 64, 7, stride=2, pad=3, **kwargs)
            self.conv2_reduce = Convolution2D(64, 64, 1, **kwargs)
            self.conv2 = Convolution2D(64, 192, 3, stride=1, pad=1, **kwargs)
            # as Chainer's: the inception modules keep their default
            # initializers, pre-trained or not
            for link_name, _, *channels in _INCEPTIONS:
                setattr(self, link_name, Inception(*channels))
            self.loss1_conv = Convolution2D(512, 128, 1, **kwargs)
            self.loss1_fc1 = Linear(2048, 1024, **kwargs)
            self.loss1_fc2 = Linear(1024, 1000, **kwargs)
            self.loss2_conv = Convolution2D(528, 128, 1, **kwargs)
            self.loss2_fc1 = Linear(2048, 1024, **kwargs)
            self.loss2_fc2 = Linear(1024, 1000, **kwargs)
            self.loss3_fc = Linear(1024, 1000, **kwargs)
        _layers.load(
            self,
            pretrained_model,
            'bvlc_googlenet.npz',
            _layers.download_caffemodel(
                type(self).__name__,
                _URL,
                'bvlc_googlenet.npz',
                GoogLeNet.convert_caffemodel_to_npz,
            ),
        )

    @property
    def functions(self):
        """collections.OrderedDict: Layer name -> callables computing it."""
        inception = {layer: [getattr(self, name)] for name, layer, *_ in _INCEPTIONS}
        return collections.OrderedDict(
            [
                ('conv1', [self.conv1, relu]),
                ('pool1', [_max_pooling, _lrn]),
                ('conv2_reduce', [self.conv2_reduce, relu]),
                ('conv2', [self.conv2, relu, _lrn]),
                ('pool2', [_max_pooling]),
                ('inception_3a', inception['inception_3a']),
                ('inception_3b', inception['inception_3b']),
                ('pool3', [_max_pooling]),
                ('inception_4a', inception['inception_4a']),
                ('inception_4b', inception['inception_4b']),
                ('inception_4c', inception['inception_4c']),
                ('inception_4d', inception['inception_4d']),
                ('inception_4e', inception['inception_4e']),
                ('pool4', [_max_pooling]),
                ('inception_5a', inception['inception_5a']),
                ('inception_5b', inception['inception_5b']),
                ('pool5', [_average_pooling_7x7]),
                ('loss3_fc', [_dropout_04, self.loss3_fc]),
                ('prob', [softmax]),
                (
                    'loss1_fc2',
                    [
                        _average_pooling_5x5,
                        self.loss1_conv,
                        relu,
                        self.loss1_fc1,
                        relu,
                        self.loss1_fc2,
                    ],
                ),
                (
                    'loss2_fc2',
                    [
                        _average_pooling_5x5,
                        self.loss2_conv,
                        relu,
                        self.loss2_fc1,
                        relu,
                        self.loss2_fc2,
                    ],
                ),
            ]
        )

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel, path_npz):
        """Converts BVLC's ``bvlc_googlenet.caffemodel`` to an ``.npz``.

        Args:
            path_caffemodel (str): Path of the ``.caffemodel`` file.
            path_npz (str): Path of the ``.npz`` file written.

        """
        model = GoogLeNet(pretrained_model=None)
        _transfer(_layers.read_caffemodel(path_caffemodel), model)
        npz.save_npz(path_npz, model, compression=False)


prepare = _image.prepare_for(_MEAN, 'GoogLeNet', __name__)


def _transfer(src, dst):
    # Caffe's layer names hold '/', so they are read with getattr.
    for name, caffe_name in _CAFFE_NAMES:
        _layers.copy_convolution(getattr(dst, name), getattr(src, caffe_name))
    for name, layer, *_ in _INCEPTIONS:
        module = getattr(dst, name)
        for child, part in _INCEPTION_PARTS:
            _layers.copy_convolution(
                getattr(module, child), getattr(src, '{}/{}'.format(layer, part))
            )
