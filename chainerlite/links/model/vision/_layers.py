"""The chain the pre-trained vision models share.

A model lists its layers in ``functions``, an ordered mapping from a layer
name to the callables that compute it from the previous layer's output.
``_branches`` names layers that start from an earlier layer instead of the
previous one (GoogLeNet's auxiliary classifiers); they come last in
``functions`` and are computed right after the layer they start from.
"""

import os
import sys

from chainerlite import configuration
from chainerlite import function
from chainerlite import initializers
from chainerlite import link
from chainerlite import variable
from chainerlite.dataset import convert
from chainerlite.dataset import download
from chainerlite.dataset._unavailable import DownloadUnavailable
from chainerlite.functions.array import reshape
from chainerlite.functions.math import average
from chainerlite.links.model.vision import _image
from chainerlite.serializers import npz
from chainerlite.utils import argument
from chainerlite.utils import imgproc

_NO_VOLATILE = 'volatile argument is not supported anymore. Use chainer.using_config'


class PretrainedLayers(link.Chain):
    """Base of VGG, ResNet and GoogLeNet: layer selection and image input.

    A subclass defines ``functions``, ``_mean`` (the BGR mean its
    ``prepare`` subtracts) and ``_extract_layers`` (the layers ``extract``
    returns by default); ``_removed`` names the argument of old versions
    that ``forward`` and ``extract`` refuse with ValueError (Chainer's
    GoogLeNet refuses ``train``, the others ``test``).
    """

    _branches = {}
    _removed = 'test'

    @property
    def available_layers(self):
        """list of str: The names of the layers ``forward`` can return."""
        return list(self.functions)

    def forward(self, x, layers=None, **kwargs):
        """Computes the given layers' outputs.

        Layers are computed in order up to the last one asked for.

        Args:
            x (~chainerlite.Variable or array): Input of shape
                ``(n, 3, height, width)``, as :func:`prepare` makes it.
            layers (list of str): Names of the layers to return, from
                :attr:`available_layers`; ``None`` returns ``['prob']``.

        Returns:
            dict: Layer name -> :class:`~chainerlite.Variable`.

        Raises:
            ValueError: If a name is not a layer of the model, or the removed
                ``test`` argument (``train`` of GoogLeNet) is given.

        """
        argument.parse_kwargs(kwargs, **self._removed_arguments())
        if layers is None:
            layers = ['prob']
        functions = self.functions
        unknown = [name for name in layers if name not in functions]
        if unknown:
            raise ValueError(
                '{}: no layer named {}; available layers: {}'.format(
                    type(self).__name__,
                    ', '.join(map(repr, unknown)),
                    ', '.join(functions),
                )
            )
        wanted = set(layers)
        outputs = {}
        h = x
        for name, funcs in functions.items():
            if not wanted:
                break
            if name in self._branches:
                continue
            h = _apply(funcs, h)
            _keep(outputs, wanted, name, h)
            for branch, source in self._branches.items():
                if source == name and branch in wanted:
                    _keep(outputs, wanted, branch, _apply(functions[branch], h))
        return outputs

    def extract(self, images, layers=None, size=(224, 224), **kwargs):
        """Extracts the given layers' outputs from images.

        A shortcut for :func:`prepare` on each image and :meth:`forward` on
        the batch. Unlike :meth:`predict`, it leaves ``chainer.config.train``
        and ``enable_backprop`` as they are: set them with
        ``chainer.using_config`` to extract without training behaviour.

        Args:
            images (iterable of PIL.Image or numpy.ndarray): RGB images.
            layers (list of str): Layers to return (default: the model's
                usual feature layer).
            size (pair of ints): ``(width, height)`` the images are resized
                to; ``None`` keeps them (they must then all have one size).

        Returns:
            dict: Layer name -> :class:`~chainerlite.Variable`.

        """
        argument.parse_kwargs(
            kwargs, volatile=_NO_VOLATILE, **self._removed_arguments()
        )
        if layers is None:
            layers = self._extract_layers
        x = self._batch(images, size)
        return self(variable.Variable(self.xp.asarray(x)), layers=layers)

    def predict(self, images, oversample=True):
        """Computes the class probabilities of images.

        Each image is resized to 256x256; the probabilities are those of its
        224x224 centre crop, or with ``oversample`` their mean over the ten
        crops of :func:`chainerlite.utils.imgproc.oversample` (corners,
        centre and their mirrors). It runs in test mode without a graph.

        Args:
            images (iterable of PIL.Image or numpy.ndarray): RGB images.
            oversample (bool): Average over ten crops instead of one.

        Returns:
            ~chainerlite.Variable: Probabilities, of shape ``(n, 1000)``.

        """
        x = self._batch(images, (256, 256))
        if oversample:
            x = imgproc.oversample(x, (224, 224))
        else:
            x = x[:, :, 16:240, 16:240]
        with function.no_backprop_mode(), configuration.using_config('train', False):
            y = self(variable.Variable(self.xp.asarray(x)), layers=['prob'])['prob']
            if oversample:
                y = reshape.reshape(y, (-1, 10) + y.shape[1:])
                y = average.average(y, axis=1)
        return y

    def _removed_arguments(self):
        message = '{} argument is not supported anymore. Use chainer.using_config'
        return {self._removed: message.format(self._removed)}

    def _batch(self, images, size):
        name = type(self).__name__
        return convert.concat_examples(
            [_image.convert(image, size, self._mean, name) for image in images]
        )


def _apply(funcs, h):
    for func in funcs:
        h = func(h)
    return h


def _keep(outputs, wanted, name, h):
    if name in wanted:
        outputs[name] = h
        wanted.remove(name)


def initial_weights(pretrained_model, random):
    """The ``initialW``/``initial_bias`` keyword arguments of a model's layers.

    Args:
        pretrained_model: The constructor's argument; when weights are
            loaded, every array starts at zero (the random draws would be
            overwritten).
        random (~chainerlite.initializer.Initializer): The initializer of
            the weights otherwise; the biases start at zero.

    Returns:
        dict: ``initialW`` and ``initial_bias``.

    """
    zero = initializers.Zero()
    return {'initialW': zero if pretrained_model else random, 'initial_bias': zero}


def load(model, pretrained_model, npz_name, make_npz):
    """Loads a model's weights as its constructor's ``pretrained_model`` says.

    Args:
        model (~chainerlite.Link): The model.
        pretrained_model (str or None): ``None`` loads nothing; ``'auto'``
            loads ``npz_name`` from ``pfnet/chainer/models`` in the dataset
            root, calling ``make_npz(path)`` first if it is not there; any
            other value is the path of an ``.npz`` file.
        npz_name (str): File name of the converted weights.
        make_npz (callable): ``make_npz(path)`` writes the ``.npz``.

    """
    if pretrained_model == 'auto':

        def create(path):
            make_npz(path)
            npz.load_npz(path, model)

        download.cache_or_load_file(
            models_path(npz_name), create, lambda path: npz.load_npz(path, model)
        )
    elif pretrained_model:
        npz.load_npz(pretrained_model, model)


def models_path(file_name):
    """Path of a file in ``pfnet/chainer/models`` under the dataset root."""
    return os.path.join(
        download.get_dataset_directory('pfnet/chainer/models/'), file_name
    )


def download_caffemodel(model_name, url, npz_name, convert):
    """Returns a ``make_npz`` for :func:`load` that downloads a caffemodel.

    Args:
        model_name (str): The class name, for messages.
        url (str): Where the ``.caffemodel`` is.
        npz_name (str): The file :func:`load` keeps, for messages.
        convert (callable): ``convert(path_caffemodel, path_npz)``.

    A download that fails raises a ``URLError`` (as Chainer's does; an
    ``OSError``) saying how to provide the weights by hand instead.
    """

    def make_npz(path):
        try:
            caffemodel = download.cached_download(url)
        except OSError as e:
            raise DownloadUnavailable(
                '{0}: cannot download the pre-trained caffemodel from {1} '
                '({2}). Download it by hand, convert it with '
                '{0}.convert_caffemodel_to_npz and pass the .npz file as '
                'pretrained_model, or save it as {3}'.format(
                    model_name, url, e, models_path(npz_name)
                )
            ) from e
        sys.stderr.write('Converting {} (a few minutes)...\n'.format(caffemodel))
        convert(caffemodel, path)

    return make_npz


def read_caffemodel(path):
    """Loads a caffemodel with :class:`~chainerlite.links.caffe.CaffeFunction`."""
    from chainerlite.links.caffe import CaffeFunction

    return CaffeFunction(path)


def copy_convolution(dst, src):
    """Copies the weight (and the bias, when ``dst`` has one) of a layer.

    Caffe's convolution and inner-product weights have the shapes of
    :class:`~chainerlite.links.Convolution2D`'s and
    :class:`~chainerlite.links.Linear`'s.
    """
    dst.W.array[...] = src.W.array
    if getattr(dst, 'b', None) is not None:
        dst.b.array[...] = src.b.array


def copy_batch_normalization(dst, bn, scale):
    """Copies Caffe's BatchNorm and Scale layer pair into a batch norm."""
    dst.avg_mean[...] = bn.avg_mean
    dst.avg_var[...] = bn.avg_var
    dst.gamma.array[...] = scale.W.array
    dst.beta.array[...] = scale.bias.b.array
