"""MNIST-style datasets (MNIST, Fashion-MNIST, Kuzushiji-MNIST).

Cache layout (as Chainer): ``ROOT/pfnet/chainer/<name>/train.npz`` and
``test.npz``, each with ``x`` (N, 784) uint8 pixels and ``y`` (N,) uint8
labels, built from the four gzipped IDX files.
"""

import gzip
import os

import numpy

from chainerlite import configuration
from chainerlite.datasets import _cache
from chainerlite.datasets import tuple_dataset

_IMAGES_MAGIC = 2051
_LABELS_MAGIC = 2049


def urls(base):
    """The URLs of the four IDX files under ``base``, by part."""
    return {
        'train': (
            base + 'train-images-idx3-ubyte.gz',
            base + 'train-labels-idx1-ubyte.gz',
        ),
        'test': (
            base + 't10k-images-idx3-ubyte.gz',
            base + 't10k-labels-idx1-ubyte.gz',
        ),
    }


def _read_idx(path, magic, header_words):
    with gzip.open(path, 'rb') as f:
        data = f.read()
    header = numpy.frombuffer(data, '>i4', header_words)
    if header[0] != magic:
        raise ValueError(
            '{} is not an IDX file of the expected kind (magic {}, expected {})'.format(
                path, header[0], magic
            )
        )
    body = numpy.frombuffer(data, numpy.uint8, offset=4 * header_words)
    if body.size != int(numpy.prod(header[1:])):
        raise ValueError('{} is truncated'.format(path))
    return header, body


def _convert(images_path, labels_path):
    header, pixels = _read_idx(images_path, _IMAGES_MAGIC, 4)
    _, labels = _read_idx(labels_path, _LABELS_MAGIC, 2)
    x = pixels.reshape(header[1], header[2] * header[3])
    if len(labels) != len(x):
        raise RuntimeError(
            '{} and {} hold different numbers of examples'.format(
                images_path, labels_path
            )
        )
    return {'x': x, 'y': labels}


def load(
    loader_name,
    name,
    urls,
    withlabel,
    ndim,
    scale,
    dtype,
    label_dtype,
    rgb_format,
    former_urls=None,
):
    """Loads the (train, test) pair of an MNIST-style dataset.

    ``urls`` maps ``'train'``/``'test'`` to (images URL, labels URL);
    ``former_urls`` likewise to Chainer's URLs when they differ (their
    cached downloads are used when present). ``rgb_format`` counts only
    with ``ndim=3``, as in Chainer.
    """
    if ndim not in (1, 2, 3):
        raise ValueError(
            '{}: ndim must be 1, 2 or 3, but is {}'.format(loader_name, ndim)
        )
    directory = _cache.dataset_directory(name)
    files = [os.path.join(directory, part + '.npz') for part in ('train', 'test')]
    dtype = numpy.dtype(configuration.config.dtype if dtype is None else dtype)
    parts = []
    for part, path in zip(('train', 'test'), files):

        def build(part=part):
            formers = (None, None) if former_urls is None else former_urls[part]
            return _convert(
                *[
                    _cache.fetch(loader_name, url, files, former)
                    for url, former in zip(urls[part], formers)
                ]
            )

        raw = _cache.load_npz(path, build)
        parts.append(
            _preprocess(raw, withlabel, ndim, scale, dtype, label_dtype, rgb_format)
        )
    return tuple(parts)


def _preprocess(raw, withlabel, ndim, scale, dtype, label_dtype, rgb_format):
    images = raw['x']
    if ndim == 2:
        images = images.reshape(-1, 28, 28)
    elif ndim == 3:
        images = images.reshape(-1, 1, 28, 28)
        if rgb_format:
            images = numpy.broadcast_to(images, (len(images), 3, 28, 28))
    images = _cache.scale_images(images, dtype, scale)
    if not withlabel:
        return images
    return tuple_dataset.TupleDataset(images, raw['y'].astype(label_dtype))
