"""SVHN, the Street View House Numbers (``get_svhn``).

Cache layout (as Chainer): ``ROOT/pfnet/chainer/svhn/train.npz`` and
``test.npz`` (``extra.npz`` with ``add_extra``) with the ``X`` and ``y``
arrays of the ``*_32x32.mat`` files as uint8: ``x`` (32, 32, 3, N)
images and ``y`` (N, 1) labels 1..10 (10 for the digit 0), turned into
(N, 3, 32, 32) images and labels 0..9 when loaded. Reading the ``.mat``
files needs SciPy; the cache files do not.
"""

import os

import numpy

from chainerlite import configuration
from chainerlite.datasets import _cache
from chainerlite.datasets import tuple_dataset

_URL = 'http://ufldl.stanford.edu/housenumbers/{}_32x32.mat'


def _convert(path):
    try:
        from scipy import io as scipy_io
    except ImportError as e:
        raise RuntimeError(
            'get_svhn: SciPy is needed to read {} (pip install scipy)'.format(path)
        ) from e
    raw = scipy_io.loadmat(path)
    return {'x': raw['X'].astype(numpy.uint8), 'y': raw['y'].astype(numpy.uint8)}


def get_svhn(
    withlabel=True, scale=1.0, dtype=None, label_dtype=numpy.int32, add_extra=False
):
    """Returns SVHN (73257 training and 26032 test 32x32 colour images of
    digits), downloading it once.

    Args:
        withlabel (bool): Return ``TupleDataset(images, labels)``; else
            only the images.
        scale (float): Pixel values are scaled to ``[0, scale]``.
        dtype: Image dtype (``chainerlite.config.dtype`` when ``None``).
        label_dtype: Label dtype.
        add_extra (bool): Also return the 531131 extra training images, as
            a third dataset.

    Returns:
        tuple: ``(train, test)``, or ``(train, test, extra)``; images are
        ``(3, 32, 32)``.

    Raises:
        RuntimeError: If the data are neither cached nor downloadable; the
            message says which files to place where.

    """
    directory = _cache.dataset_directory('svhn')
    names = ['train', 'test'] + (['extra'] if add_extra else [])
    files = [os.path.join(directory, n + '.npz') for n in names]
    dtype = numpy.dtype(configuration.config.dtype if dtype is None else dtype)
    parts = []
    for name, path in zip(names, files):

        def build(name=name):
            return _convert(_cache.fetch('get_svhn', _URL.format(name), files))

        raw = _cache.load_npz(path, build)
        images = _cache.scale_images(raw['x'].transpose(3, 2, 0, 1), dtype, scale)
        if withlabel:
            labels = raw['y'].astype(label_dtype).reshape(-1)
            labels[labels == 10] = 0  # the files say 10 for the digit 0
            images = tuple_dataset.TupleDataset(images, labels)
        parts.append(images)
    return tuple(parts)
