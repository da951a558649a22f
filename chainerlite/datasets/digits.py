"""The UCI handwritten digits (8x8 images), bundled for offline use."""

import functools
import os

import numpy

_PATH = os.path.join(os.path.dirname(__file__), 'data', 'digits.csv.gz')

#: Number of images in the data set.
N_SAMPLES = 1797
#: Side of the square images, in pixels.
IMAGE_SIZE = 8
#: Largest pixel value (each pixel counts the "on" points of a 4x4 block).
MAX_VALUE = 16


@functools.lru_cache(maxsize=1)
def _load():
    table = numpy.loadtxt(_PATH, delimiter=',', dtype=numpy.int32)
    table.setflags(write=False)
    return table


def _stratified_split(labels, split, rng):
    # Takes the same share of every class, so both parts keep the balance.
    train, test = [], []
    for label in numpy.unique(labels):
        index = rng.permutation(numpy.flatnonzero(labels == label))
        n_train = int(round(split * len(index)))
        train.append(index[:n_train])
        test.append(index[n_train:])
    return (
        rng.permutation(numpy.concatenate(train)),
        rng.permutation(numpy.concatenate(test)),
    )


def get_digits(split=0.8, seed=0, dtype=numpy.float32):
    """Returns the UCI handwritten digits, split into training and test sets.

    The data are the 1797 8x8 images of the "Optical Recognition of
    Handwritten Digits" set (Alpaydin and Kaynak, 1998; UCI Machine
    Learning Repository, CC BY 4.0), shipped with chainerlite so that no
    download is needed. Each pixel, an integer in 0..16, is divided by 16.
    The split is stratified: every digit contributes the fraction
    ``split`` of its images to the training set. The same ``seed`` always
    gives the same split and the same order.

    Args:
        split (float): Fraction of the images that go to the training set,
            strictly between 0 and 1.
        seed (int): Seed of the random split and shuffle.
        dtype: Floating-point dtype of the images.

    Returns:
        tuple: ``(train, test)``; each is a pair ``(x, t)`` of a
        ``(N, 64)`` array of ``dtype`` with values in ``[0, 1]`` (the image
        rows one after another) and a ``(N,)`` int32 array of labels 0..9.

    Raises:
        ValueError: If ``split`` is not in ``(0, 1)`` or ``dtype`` is not a
            floating-point type.

    .. admonition:: Example

        >>> from chainerlite.datasets import get_digits
        >>> (x, t), (x_test, t_test) = get_digits()
        >>> x.shape, x.dtype, t.dtype, x_test.shape
        ((1438, 64), dtype('float32'), dtype('int32'), (359, 64))

    """
    if not 0 < split < 1:
        raise ValueError('split must be in (0, 1), but is {}'.format(split))
    dtype = numpy.dtype(dtype)
    if dtype.kind != 'f':
        raise ValueError('dtype must be a floating-point type, but is {}'.format(dtype))
    table = _load()
    x = table[:, :-1].astype(dtype) / dtype.type(MAX_VALUE)
    t = table[:, -1].copy()
    train, test = _stratified_split(t, split, numpy.random.RandomState(seed))
    return (x[train], t[train]), (x[test], t[test])
