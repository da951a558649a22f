"""Fashion-MNIST clothing images (``get_fashion_mnist``).

Cache layout (as Chainer): ``ROOT/pfnet/chainer/fashion-mnist/train.npz`` and
``test.npz`` (see :mod:`chainerlite.datasets._mnist_format`).
"""

import numpy

from chainerlite.datasets import _mnist_format

_URLS = _mnist_format.urls(
    'http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/'
)


def get_fashion_mnist(
    withlabel=True,
    ndim=1,
    scale=1.0,
    dtype=None,
    label_dtype=numpy.int32,
    rgb_format=False,
):
    """Returns the Fashion-MNIST clothing images, downloading it once.

    60000 training and 10000 test 28x28 grey images of 10 classes; the
    arguments, results and errors are those of
    :func:`~chainerlite.datasets.get_mnist`.
    """
    return _mnist_format.load(
        'get_fashion_mnist',
        'fashion-mnist',
        _URLS,
        withlabel,
        ndim,
        scale,
        dtype,
        label_dtype,
        rgb_format,
    )


def get_fashion_mnist_labels():
    """Returns the names of the ten Fashion-MNIST classes, by label."""
    return [
        'T-shirt/top',
        'Trouser',
        'Pullover',
        'Dress',
        'Coat',
        'Sandal',
        'Shirt',
        'Sneaker',
        'Bag',
        'Ankle boot',
    ]
