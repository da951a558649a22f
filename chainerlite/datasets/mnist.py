"""MNIST handwritten digits (``get_mnist``).

Cache layout (as Chainer): ``ROOT/pfnet/chainer/mnist/train.npz`` and
``test.npz`` (see :mod:`chainerlite.datasets._mnist_format`).
"""

import numpy

from chainerlite.datasets import _mnist_format

# a mirror: Chainer's site of the files no longer serves them (its cached
# downloads are used where present)
_URLS = _mnist_format.urls('https://storage.googleapis.com/cvdf-datasets/mnist/')
_CHAINER_URLS = _mnist_format.urls('http://yann.lecun.com/exdb/mnist/')


def get_mnist(
    withlabel=True,
    ndim=1,
    scale=1.0,
    dtype=None,
    label_dtype=numpy.int32,
    rgb_format=False,
):
    """Returns the MNIST handwritten digits, downloading it once.

    60000 training and 10000 test 28x28 grey images of 10 classes.

    Args:
        withlabel (bool): Return ``TupleDataset(images, labels)``; else
            only the images.
        ndim (int): Shape of each image: 1 gives ``(784,)``, 2
            ``(28, 28)``, 3 ``(1, 28, 28)`` (``(3, 28, 28)`` with
            ``rgb_format``).
        scale (float): Pixel values are scaled to ``[0, scale]``.
        dtype: Image dtype (``chainerlite.config.dtype`` when ``None``).
        label_dtype: Label dtype.
        rgb_format (bool): Repeat the grey channel three times (``ndim=3``).

    Returns:
        tuple: ``(train, test)``.

    Raises:
        RuntimeError: If the data are neither cached nor downloadable; the
            message says which files to place where.

    """
    return _mnist_format.load(
        'get_mnist',
        'mnist',
        _URLS,
        withlabel,
        ndim,
        scale,
        dtype,
        label_dtype,
        rgb_format,
        former_urls=_CHAINER_URLS,
    )
