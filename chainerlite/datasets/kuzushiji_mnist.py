"""Kuzushiji-MNIST cursive Japanese characters (``get_kuzushiji_mnist``).

Cache layout (as Chainer): ``ROOT/pfnet/chainer/kuzushiji_mnist/train.npz`` and
``test.npz`` (see :mod:`chainerlite.datasets._mnist_format`).
"""

import numpy

from chainerlite.datasets import _mnist_format

_URLS = _mnist_format.urls('http://codh.rois.ac.jp/kmnist/dataset/kmnist/')


def get_kuzushiji_mnist(
    withlabel=True,
    ndim=1,
    scale=1.0,
    dtype=None,
    label_dtype=numpy.int32,
    rgb_format=False,
):
    """Returns the Kuzushiji-MNIST cursive Japanese characters, downloading it once.

    60000 training and 10000 test 28x28 grey images of 10 classes; the
    arguments, results and errors are those of
    :func:`~chainerlite.datasets.get_mnist`.
    """
    return _mnist_format.load(
        'get_kuzushiji_mnist',
        'kuzushiji_mnist',
        _URLS,
        withlabel,
        ndim,
        scale,
        dtype,
        label_dtype,
        rgb_format,
    )


def get_kuzushiji_mnist_labels():
    """Returns the ten Kuzushiji-MNIST classes, by label, as pairs of
    (romanization, hiragana character)."""
    return [
        ('o', '\u304a'),
        ('ki', '\u304d'),
        ('su', '\u3059'),
        ('tsu', '\u3064'),
        ('na', '\u306a'),
        ('ha', '\u306f'),
        ('ma', '\u307e'),
        ('ya', '\u3084'),
        ('re', '\u308c'),
        ('wo', '\u3092'),
    ]
