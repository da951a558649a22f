"""Calls written for Chainer 7.8.1's signatures bind as they do there (found
by tools/names_check.py): values recorded from Chainer."""

import numpy

import chainerlite.functions as F


def test_mean_is_average():
    # Chainer: F.mean is F.average(x, axis=None, weights=None, keepdims=False)
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    assert F.mean is F.average
    numpy.testing.assert_array_equal(F.mean(x, 1, None, True).array, [[1.0], [4.0]])
    w = numpy.array([1, 0, 1], numpy.float32)
    numpy.testing.assert_array_equal(F.mean(x, 1, w).array, [1.0, 4.0])
    assert F.mean(x).array == 2.5


def test_upsampling_2d_takes_indexes():
    x = numpy.array([[[[3, 1], [4, 2]]]], numpy.float32)
    y, indexes = F.max_pooling_2d(x, 2, return_indices=True)
    out = F.upsampling_2d(y, indexes=indexes, ksize=2, outsize=(2, 2))
    numpy.testing.assert_array_equal(out.array[0, 0], [[0.0, 0.0], [4.0, 0.0]])
