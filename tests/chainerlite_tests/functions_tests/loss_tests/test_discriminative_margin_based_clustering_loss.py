import itertools

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check


def _reference(emb, labels, delta_v, delta_d, k, norm):
    # Pixel by pixel. The pull term averages a cluster over its pixels of
    # the whole batch and then over the K clusters; the push term averages
    # over images and pairs of clusters; the regularization term takes the
    # norm of a cluster's means in all images together.
    def size(v):
        v = numpy.ravel(v)
        return numpy.abs(v).sum() if norm == 1 else numpy.sqrt((v * v).sum())

    n, d, h, w = emb.shape
    places = list(itertools.product(range(h), range(w)))
    means = numpy.zeros((n, k, d))
    for b, c in itertools.product(range(n), range(k)):
        members = [emb[b, :, y, x] for y, x in places if labels[b, y, x] == c + 1]
        if members:
            means[b, c] = numpy.mean(members, axis=0)
    pull = 0.0
    for c in range(k):
        terms = [
            max(size(means[b, c] - emb[b, :, y, x]) - delta_v, 0) ** 2
            for b in range(n)
            for y, x in places
            if labels[b, y, x] == c + 1
        ]
        if terms:
            pull += numpy.mean(terms) / k
    push = 0.0
    pairs = list(itertools.combinations(range(k), 2))
    for b, (i, j) in itertools.product(range(n), pairs):
        push += max(2 * delta_d - size(means[b, i] - means[b, j]), 0) ** 2
    push /= max(n * len(pairs), 1)
    reg = sum(size(means[:, c]) for c in range(k)) / (n * k)
    return pull, push, reg


# (n, d, k): n = 1 or k, d = k is what Chainer itself accepts; the others
# are the same formulas on other shapes.
SHAPES = [(1, 3, 3), (3, 3, 3), (2, 3, 3), (4, 2, 2), (2, 3, 5), (3, 1, 1)]


@pytest.mark.parametrize('background', [False, True])
@pytest.mark.parametrize('norm', [1, 2])
@pytest.mark.parametrize('n, d, k', SHAPES)
def test_forward_and_backward(n, d, k, norm, background):
    rng = numpy.random.RandomState(n * 100 + d * 10 + k + norm)
    emb = rng.uniform(-1, 1, (n, d, 4, 3))
    low = 0 if background else 1
    labels = rng.randint(low, min(k, 3) + 1, (n, 4, 3)).astype(numpy.int32)
    if background:
        labels[:, 1, 0] = k + 1  # ignored, as label 0
    delta_v, delta_d = rng.uniform(0, 0.5), rng.uniform(0.2, 1.2)
    weights = rng.uniform(0.1, 3, 3)

    def f(emb):
        return F.discriminative_margin_based_clustering_loss(
            emb, labels, delta_v, delta_d, k, norm, *weights
        )

    expected = _reference(emb, labels, delta_v, delta_d, k, norm)
    for value, ref, weight in zip(f(emb), expected, weights):
        assert value.shape == ()
        numpy.testing.assert_allclose(value.array, weight * ref, rtol=1e-12)
    for i in range(3):
        gradient_check.check_backward(
            lambda emb: f(emb)[i], emb, numpy.array(0.7), atol=1e-4, rtol=1e-4
        )


def test_pull_pools_the_batch_and_divides_by_k():
    # Cluster 1 has two pixels at distance 1 from their mean (2) in image 0
    # and three at distance 0 in image 1; cluster 2 has no pixel. With
    # delta_v 0 the pull is (1 + 1 + 0 + 0 + 0) / 5 pixels / K = 2 clusters
    # (an average image by image would give 0.25).
    emb = numpy.zeros((2, 2, 2, 2))
    emb[0, 0] = [[1.0, 3.0], [7.0, 7.0]]
    labels = numpy.array([[[1, 1], [0, 0]], [[1, 1], [1, 0]]], numpy.int32)
    pull, _, _ = F.discriminative_margin_based_clustering_loss(emb, labels, 0.0, 1.0, 2)
    assert float(pull.array) == pytest.approx(0.2, rel=1e-15)


def test_zero_distances_have_finite_l2_gradients():
    # Two clusters without pixels (equal means in every image), a cluster
    # of one pixel (equal to its mean) and background pixels: each L2 norm
    # of a vector that stays zero has the gradient 0, not a NaN from sqrt.
    emb = numpy.random.RandomState(0).uniform(-1, 1, (2, 3, 2, 2))
    labels = numpy.array([[[1, 0], [0, 0]], [[1, 1], [0, 0]]], numpy.int32)

    def f(e):
        return F.discriminative_margin_based_clustering_loss(e, labels, 0.1, 1.0, 3, 2)

    for i in range(3):
        x = chainerlite.Variable(emb.copy())
        f(x)[i].backward()
        assert numpy.isfinite(x.grad).all()
        gradient_check.check_backward(
            lambda e: f(e)[i], emb, numpy.array(1.0), atol=1e-4, rtol=1e-4
        )


def test_invalid_arguments():
    emb = numpy.zeros((1, 2, 3, 3))
    labels = numpy.zeros((1, 3, 3), numpy.int32)
    with pytest.raises(ValueError, match='norm'):
        F.discriminative_margin_based_clustering_loss(emb, labels, 0.5, 1.0, 2, norm=3)
    with pytest.raises(ValueError, match='discriminative'):
        F.discriminative_margin_based_clustering_loss(emb, labels[0], 0.5, 1.0, 2)
