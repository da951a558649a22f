"""Means of float16 losses over batches that float16 cannot count.

Chainer 7.8.1 (on NumPy 1) divides a loss's sum by the batch size in a
dtype that holds the size, and sums the softmax and sigmoid cross entropies
(and the contrastive loss, computed in float64 there) in a wider dtype.
chainerlite divided by the size rounded to float16 (2049 is 2048 there,
70000 is inf) and summed in float16, so the mean of a large float16 batch
was off, NaN, zero or inf.
"""

import numpy
import pytest

import chainerlite.functions as F


def _rows(n, width, seed=0):
    rng = numpy.random.RandomState(seed)
    return rng.uniform(-2, 2, (n, width)).astype(numpy.float16)


def _once(value):
    # a float64 quotient rounded once to float16
    return numpy.float16(value)


@pytest.mark.parametrize('n', [2049, 70000])
def test_sum_divided_by_a_count_float16_cannot_hold(n):
    a, b = _rows(n, 2), _rows(n, 2, 1)
    labels = numpy.random.RandomState(2).randint(0, 2, n).astype(numpy.int32)
    with numpy.errstate(over='ignore'):
        margin = numpy.maximum(0, 1 + numpy.where(numpy.eye(2)[labels] > 0, -a, a))
        hinge_sum = margin.sum()
        to_negative = a - b
        dist = (a * a).sum(axis=1) - (to_negative * to_negative).sum(axis=1) + 1
        triplet_sum = numpy.maximum(dist, 0).sum()
    assert F.hinge(a, labels).array == _once(float(hinge_sum) / n)
    assert F.triplet(a, a * 0, b, margin=1).array == _once(float(triplet_sum) / n)
    diff = (a - b).ravel()
    with numpy.errstate(over='ignore'):
        dot = diff.dot(diff)
    assert F.mean_squared_error(a, b).array == _once(float(dot) / diff.size)


def test_covariances_of_a_batch_float16_cannot_count():
    h = _rows(70000, 3)
    for value in (F.decov(h).array, F.cross_covariance(h, h[::-1].copy()).array):
        assert numpy.isfinite(value) and value > 0


@pytest.mark.parametrize('n', [70000, 100000])
def test_cross_entropies_of_a_large_float16_batch_are_finite(n):
    x = _rows(n, 3)
    t = numpy.random.RandomState(3).randint(0, 3, n).astype(numpy.int32)
    wide = F.softmax_cross_entropy(x.astype(numpy.float32), t).array
    assert F.softmax_cross_entropy(x, t).array == wide.astype(numpy.float16)
    bits = (t[:, None] == numpy.arange(3)).astype(numpy.int32)
    sigmoid = F.sigmoid_cross_entropy(x, bits).array
    wide = F.sigmoid_cross_entropy(x.astype(numpy.float32), bits).array
    numpy.testing.assert_allclose(sigmoid, wide, rtol=2e-3)
    labels = t % 2
    contrastive = F.contrastive(x, x[::-1].copy(), labels).array
    wide = F.contrastive(x.astype(numpy.float32), x[::-1].astype(numpy.float32), labels)
    numpy.testing.assert_allclose(contrastive, wide.array, rtol=2e-3)
