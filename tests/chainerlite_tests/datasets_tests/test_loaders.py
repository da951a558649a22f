"""The downloadable loaders, on small files written in Chainer's cache
layout (nothing is downloaded: the dataset_root fixture is offline)."""

import gzip
import hashlib
import io
import os
import pickle
import tarfile
import urllib.error

import numpy
import pytest

from chainerlite import datasets
from chainerlite.datasets import cifar
from chainerlite.datasets import fashion_mnist
from chainerlite.datasets import mnist
from chainerlite.datasets import ptb


def _raw_path(root, url):
    folder = root / '_dl_cache'
    folder.mkdir(exist_ok=True)
    return folder / hashlib.md5(url.encode()).hexdigest()


def _cache_dir(root, name):
    path = root / 'pfnet' / 'chainer' / name
    path.mkdir(parents=True, exist_ok=True)
    return path


def _write_mnist_npz(root, name, n=4):
    x = numpy.arange(n * 784, dtype=numpy.int64).reshape(n, 784) % 256
    y = numpy.arange(n) % 10
    for part in ('train', 'test'):
        numpy.savez(
            str(_cache_dir(root, name) / (part + '.npz')),
            x=x.astype(numpy.uint8),
            y=y.astype(numpy.uint8),
        )
    return x, y


@pytest.mark.parametrize(
    'ndim, rgb, shape',
    [
        (1, False, (784,)),
        (2, False, (28, 28)),
        (3, False, (1, 28, 28)),
        (3, True, (3, 28, 28)),
    ],
)
def test_mnist_from_chainer_cache(dataset_root, ndim, rgb, shape):
    x, y = _write_mnist_npz(dataset_root, 'mnist')
    train, test = datasets.get_mnist(ndim=ndim, scale=2.0, rgb_format=rgb)
    image, label = train[3]
    assert image.shape == shape and image.dtype == numpy.float32
    numpy.testing.assert_allclose(
        image.reshape(-1, 784)[0], x[3] * 2.0 / 255, rtol=1e-6
    )
    assert label == y[3] and label.dtype == numpy.int32
    images = datasets.get_mnist(withlabel=False, dtype=numpy.float64)[1]
    assert isinstance(images, numpy.ndarray) and images.dtype == numpy.float64


def test_mnist_built_from_raw_idx_files(dataset_root):
    pixels = numpy.random.randint(0, 256, (3, 28, 28)).astype(numpy.uint8)
    labels = numpy.array([4, 0, 9], numpy.uint8)
    images_blob = numpy.array([2051, 3, 28, 28], '>i4').tobytes() + pixels.tobytes()
    labels_blob = numpy.array([2049, 3], '>i4').tobytes() + labels.tobytes()
    for part in ('train', 'test'):
        images_url, labels_url = fashion_mnist._URLS[part]
        _raw_path(dataset_root, images_url).write_bytes(gzip.compress(images_blob))
        _raw_path(dataset_root, labels_url).write_bytes(gzip.compress(labels_blob))
    train, _ = datasets.get_fashion_mnist(ndim=2, scale=255.0)
    numpy.testing.assert_array_equal(train[2][0], pixels[2])
    assert train[0][1] == 4
    cached = numpy.load(str(_cache_dir(dataset_root, 'fashion-mnist') / 'train.npz'))
    assert cached['x'].shape == (3, 784) and cached['x'].dtype == numpy.uint8


def test_offline_without_cache_says_what_to_place_where(dataset_root):
    with pytest.raises(RuntimeError) as info:
        datasets.get_mnist()
    message = str(info.value)
    assert 'get_mnist' in message and 'offline' in message
    assert os.path.join('pfnet', 'chainer', 'mnist', 'train.npz') in message
    assert str(_raw_path(dataset_root, mnist._URLS['train'][0])) in message
    assert str(info.value.__cause__) == 'offline test'


@pytest.mark.parametrize(
    'loader',
    [
        datasets.get_mnist,
        datasets.get_fashion_mnist,
        datasets.get_kuzushiji_mnist,
        datasets.get_cifar10,
        datasets.get_cifar100,
        datasets.get_svhn,
        datasets.get_ptb_words,
        datasets.get_ptb_words_vocabulary,
    ],
)
def test_offline_error_is_a_urlerror_as_in_chainer(dataset_root, loader):
    # Chainer lets urllib's URLError through: code catching it keeps working.
    with pytest.raises(urllib.error.URLError) as info:
        loader()
    error = info.value
    assert isinstance(error, OSError) and isinstance(error, RuntimeError)
    assert loader.__name__.replace('_vocabulary', '') in str(error)
    assert error.reason == str(error)
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error) and str(copy) == str(error)


def test_mnist_argument_errors(dataset_root):
    with pytest.raises(ValueError, match='ndim'):
        datasets.get_mnist(ndim=4)


def test_mnist_from_chainers_downloads(dataset_root):
    # the raw files Chainer downloaded from its site (which no longer
    # serves them) are read; rgb_format counts only with ndim=3
    pixels = numpy.random.randint(0, 256, (2, 784)).astype(numpy.uint8)
    images_blob = numpy.array([2051, 2, 28, 28], '>i4').tobytes() + pixels.tobytes()
    labels_blob = numpy.array([2049, 2], '>i4').tobytes() + bytes([3, 8])
    for part in ('train', 'test'):
        images_url, labels_url = mnist._CHAINER_URLS[part]
        _raw_path(dataset_root, images_url).write_bytes(gzip.compress(images_blob))
        _raw_path(dataset_root, labels_url).write_bytes(gzip.compress(labels_blob))
    train, test = datasets.get_mnist(ndim=1, rgb_format=True, scale=255.0)
    numpy.testing.assert_array_equal(test[1][0], pixels[1])
    assert train[0][1] == 3 and train[0][0].shape == (784,)


def test_mnist_files_of_different_lengths(dataset_root):
    # Chainer's RuntimeError for a wrong pair of files
    images_blob = numpy.array([2051, 2, 28, 28], '>i4').tobytes() + bytes(2 * 784)
    labels_blob = numpy.array([2049, 3], '>i4').tobytes() + bytes(3)
    images_url, labels_url = mnist._URLS['train']
    _raw_path(dataset_root, images_url).write_bytes(gzip.compress(images_blob))
    _raw_path(dataset_root, labels_url).write_bytes(gzip.compress(labels_blob))
    with pytest.raises(RuntimeError, match='different numbers of examples'):
        datasets.get_mnist()


def test_labels_of_the_mnist_variants():
    assert datasets.get_fashion_mnist_labels()[9] == 'Ankle boot'
    assert datasets.get_kuzushiji_mnist_labels()[0] == ('o', '\u304a')


def _cifar_archive(path, batches):
    with tarfile.open(str(path), 'w:gz') as archive:
        for name, batch in batches.items():
            blob = pickle.dumps(batch)
            info = tarfile.TarInfo('cifar-10-batches-py/' + name)
            info.size = len(blob)
            archive.addfile(info, io.BytesIO(blob))


def test_cifar10_built_from_the_python_archive(dataset_root):
    batches = {}
    for i, name in enumerate(
        ['data_batch_%d' % k for k in range(1, 6)] + ['test_batch']
    ):
        batches[name] = {
            b'data': numpy.full((2, 3072), i, numpy.uint8),
            b'labels': [i, i + 1],
        }
    _cifar_archive(_raw_path(dataset_root, cifar._CIFAR10_URL), batches)
    train, test = datasets.get_cifar10(scale=255.0)
    assert len(train) == 10 and len(test) == 2
    image, label = train[9]
    assert image.shape == (3, 32, 32) and image[0, 0, 0] == 4
    assert label == 5 and label.dtype == numpy.int32
    flat = datasets.get_cifar10(withlabel=False, ndim=1)[1]
    assert flat.shape == (2, 3072)


def test_cifar_archive_with_foreign_objects_is_refused(dataset_root):
    # A pickle that would call os.getcwd is refused, not run.
    path = _raw_path(dataset_root, cifar._CIFAR100_URL)
    _cifar_archive(path, {'train': {b'data': os.getcwd}, 'test': {}})
    with pytest.raises(pickle.UnpicklingError, match='getcwd'):
        datasets.get_cifar100()


def test_cifar100_from_chainer_cache(dataset_root):
    folder = _cache_dir(dataset_root, 'cifar')
    numpy.savez(
        str(folder / 'cifar-100.npz'),
        train_x=numpy.zeros((3, 3072), numpy.uint8),
        train_y=numpy.array([1, 2, 99], numpy.uint8),
        test_x=numpy.zeros((1, 3072), numpy.uint8),
        test_y=numpy.array([5], numpy.uint8),
    )
    train, test = datasets.get_cifar100()
    assert train[2][1] == 99 and test[0][0].shape == (3, 32, 32)


def test_svhn_from_chainer_cache(dataset_root):
    # Chainer keeps the .mat file's arrays: images (32, 32, 3, N), labels
    # (N, 1) with 10 for the digit 0
    folder = _cache_dir(dataset_root, 'svhn')
    x = numpy.zeros((32, 32, 3, 2), numpy.uint8)
    x[:, :, 1, 1] = 255
    x[0, 5, 2, 1] = 51
    for part in ('train', 'test'):
        numpy.savez(
            str(folder / (part + '.npz')), x=x, y=numpy.array([[10], [7]], numpy.uint8)
        )
    train, test = datasets.get_svhn(scale=3.0)
    image, label = test[1]
    assert image.shape == (3, 32, 32) and image[1].min() == 3.0
    assert image[2, 0, 5] == pytest.approx(0.6) and image[0].max() == 0
    assert label == 7 and train[0][1] == 0
    with pytest.raises(RuntimeError, match='extra.npz'):
        datasets.get_svhn(add_extra=True)


def test_ptb_built_from_the_raw_texts(dataset_root):
    texts = {'train': 'a b\nc a\n', 'valid': 'c\n', 'test': 'b a\n'}
    for part, text in texts.items():
        _raw_path(dataset_root, ptb._URL.format(part)).write_text(text)
    vocab = datasets.get_ptb_words_vocabulary()
    assert vocab == {'a': 0, 'b': 1, '<eos>': 2, 'c': 3}
    train, valid, test = datasets.get_ptb_words()
    assert train.dtype == numpy.int32
    assert train.tolist() == [0, 1, 2, 3, 0, 2]
    assert valid.tolist() == [3, 2] and test.tolist() == [1, 0, 2]
    assert datasets.get_ptb_words_vocabulary() == vocab
