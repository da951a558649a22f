import itertools

import numpy
import pytest

import chainerlite.functions as F
from chainerlite import gradient_check


def _reference(emb, labels, delta_v, delta_d, k, norm):
    # Image by image and cluster by cluster.
    def size(v):
        return numpy.abs(v).sum() if norm == 1 else numpy.sqrt((v * v).sum())

    n, d = emb.shape[:2]
    pull = push = reg = 0.0
    for b in range(n):
        pixels = emb[b].reshape(d, -1).T
        lab = labels[b].reshape(-1)
        means = []
        for c in range(1, k + 1):
            members = pixels[lab == c]
            mean = members.mean(0) if len(members) else numpy.zeros(d)
            means.append(mean)
            if len(members):
                pull += numpy.mean(
                    [max(size(mean - x) - delta_v, 0) ** 2 for x in members]
                )
        for i, j in itertools.permutations(range(k), 2):
            push += max(2 * delta_d - size(means[i] - means[j]), 0) ** 2 / (k * (k - 1))
        reg += numpy.mean([size(m) for m in means])
    return pull / n, push / n, reg / n


@pytest.mark.parametrize('norm', [1, 2])
@pytest.mark.parametrize('k', [3, 5])  # 5: two clusters have no pixel
def test_forward_and_backward(norm, k):
    emb = numpy.random.uniform(-1, 1, (2, 3, 4, 3))
    labels = numpy.random.randint(0, 4, (2, 4, 3)).astype(numpy.int32)
    labels[:, 0, :3] = [1, 2, 3]  # every image has clusters 1 to 3
    labels[:, 1, 0] = 5  # ignored, as label 0

    def f(emb):
        return F.discriminative_margin_based_clustering_loss(
            emb, labels, 0.1, 0.8, k, norm, alpha=0.5, beta=2.0, gamma=0.3
        )

    expected = _reference(emb, labels, 0.1, 0.8, k, norm)
    for value, ref, weight in zip(f(emb), expected, (0.5, 2.0, 0.3)):
        assert value.shape == ()
        numpy.testing.assert_allclose(value.array, weight * ref, rtol=1e-12)
    for i in range(3):
        gradient_check.check_backward(
            lambda emb: f(emb)[i], emb, numpy.array(0.7), atol=1e-4, rtol=1e-4
        )


def test_invalid_arguments():
    emb = numpy.zeros((1, 2, 3, 3))
    labels = numpy.zeros((1, 3, 3), numpy.int32)
    with pytest.raises(ValueError, match='norm'):
        F.discriminative_margin_based_clustering_loss(emb, labels, 0.5, 1.0, 2, norm=3)
    with pytest.raises(ValueError, match='discriminative'):
        F.discriminative_margin_based_clustering_loss(emb, labels[0], 0.5, 1.0, 2)
