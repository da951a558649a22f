"""CIFAR-10 and CIFAR-100 (``get_cifar10``, ``get_cifar100``).

Cache layout (as Chainer): ``ROOT/pfnet/chainer/cifar/cifar-10.npz`` and
``cifar-100.npz`` with ``train_x`` (50000, 3072) and ``test_x`` (10000,
3072) uint8 pixels (channel-major, 32x32) and ``train_y``/``test_y``
labels, built from the "python version" archives. The batches inside the
archives are pickles; they are read with an unpickler that can build
nothing but plain containers and NumPy arrays.
"""

import io
import os
import pickle
import tarfile

import numpy

from chainerlite import configuration
from chainerlite.datasets import _cache
from chainerlite.datasets import tuple_dataset

_CIFAR10_URL = 'https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz'
_CIFAR100_URL = 'https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz'

# What the CIFAR batches may reference (NumPy arrays; the module path of
# NumPy 1 and of NumPy 2).
_ALLOWED = {
    ('numpy.core.multiarray', '_reconstruct'),
    ('numpy._core.multiarray', '_reconstruct'),
    ('numpy', 'ndarray'),
    ('numpy', 'dtype'),
}


class _DataUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        if (module, name) in _ALLOWED:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(
            'CIFAR batch refers to {}.{}, which a data file never needs'.format(
                module, name
            )
        )


def _read_batch(archive, member):
    data = archive.extractfile(member).read()
    return _DataUnpickler(io.BytesIO(data), encoding='bytes').load()


def _convert(path, train_members, test_member, label_key):
    with tarfile.open(path, 'r:gz') as archive:
        members = {m.name.rsplit('/', 1)[-1]: m for m in archive.getmembers()}
        parts = {}
        for part, names in (('train', train_members), ('test', [test_member])):
            batches = [_read_batch(archive, members[n]) for n in names]
            parts[part + '_x'] = numpy.concatenate(
                [numpy.asarray(b[b'data'], numpy.uint8) for b in batches]
            )
            parts[part + '_y'] = numpy.concatenate(
                [numpy.asarray(b[label_key], numpy.uint8) for b in batches]
            )
    return parts


def _load(
    loader_name,
    file_name,
    url,
    train_members,
    test_member,
    label_key,
    withlabel,
    ndim,
    scale,
    dtype,
):
    if ndim not in (1, 3):
        raise ValueError('{}: ndim must be 1 or 3, but is {}'.format(loader_name, ndim))
    path = os.path.join(_cache.dataset_directory('cifar'), file_name)

    def build():
        raw = _cache.fetch(loader_name, url, [path])
        return _convert(raw, train_members, test_member, label_key)

    raw = _cache.load_npz(path, build)
    dtype = numpy.dtype(configuration.config.dtype if dtype is None else dtype)
    parts = []
    for part in ('train', 'test'):
        images = raw[part + '_x']
        if ndim == 3:
            images = images.reshape(-1, 3, 32, 32)
        images = _cache.scale_images(images, dtype, scale)
        if withlabel:
            labels = raw[part + '_y'].astype(numpy.int32)
            images = tuple_dataset.TupleDataset(images, labels)
        parts.append(images)
    return tuple(parts)


def get_cifar10(withlabel=True, ndim=3, scale=1.0, dtype=None):
    """Returns CIFAR-10 (50000 training and 10000 test 32x32 colour images,
    10 classes), downloading it once.

    Args:
        withlabel (bool): Return ``TupleDataset(images, labels)`` (int32
            labels); else only the images.
        ndim (int): 3 gives ``(3, 32, 32)`` images, 1 flat ``(3072,)``.
        scale (float): Pixel values are scaled to ``[0, scale]``.
        dtype: Image dtype (``chainerlite.config.dtype`` when ``None``).

    Returns:
        tuple: ``(train, test)``.

    Raises:
        RuntimeError: If the data are neither cached nor downloadable; the
            message says which files to place where.

    """
    return _load(
        'get_cifar10',
        'cifar-10.npz',
        _CIFAR10_URL,
        ['data_batch_%d' % i for i in range(1, 6)],
        'test_batch',
        b'labels',
        withlabel,
        ndim,
        scale,
        dtype,
    )


def get_cifar100(withlabel=True, ndim=3, scale=1.0, dtype=None):
    """Returns CIFAR-100 (50000 training and 10000 test 32x32 colour
    images, 100 fine classes), downloading it once.

    The arguments and errors are those of :func:`get_cifar10`.
    """
    return _load(
        'get_cifar100',
        'cifar-100.npz',
        _CIFAR100_URL,
        ['train'],
        'test',
        b'fine_labels',
        withlabel,
        ndim,
        scale,
        dtype,
    )
