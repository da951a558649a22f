import itertools

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite import links


def test_transposed_inputs_match_time_major():
    link = links.CRF1d(3, initial_cost=numpy.random.uniform(-1, 1, (3, 3)))
    lengths = [3, 2]
    seqs = [numpy.random.uniform(-1, 1, (n, 3)).astype(numpy.float32) for n in lengths]
    labels = [numpy.random.randint(0, 3, n).astype(numpy.int32) for n in lengths]
    xs = [numpy.stack([s[t] for s in seqs if len(s) > t]) for t in range(3)]
    ys = [numpy.stack([s[t] for s in labels if len(s) > t]) for t in range(3)]
    expected = F.crf1d(link.cost, xs, ys, reduce='no')
    actual = link(seqs, labels, reduce='no', transpose=True)
    numpy.testing.assert_allclose(actual.array, expected.array, rtol=1e-6)
    actual.grad = numpy.ones_like(actual.array)
    actual.backward()
    assert link.cost.grad.shape == (3, 3)
    score, path = link.argmax(seqs, transpose=True)
    _, time_path = F.argmax_crf1d(link.cost, xs)
    assert [p.tolist() for p in path] == [
        [int(time_path[t][i]) for t in range(n)] for i, n in enumerate(lengths)
    ]


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float64])
def test_initialization(dtype):
    with chainerlite.using_config('dtype', dtype):
        assert (links.CRF1d(2).cost.array == 0).all()
        cost = numpy.arange(4, dtype=dtype).reshape(2, 2)
        link = links.CRF1d(2, initial_cost=cost)
    assert link.cost.dtype == dtype
    numpy.testing.assert_array_equal(link.cost.array, cost)


def _path_score(cost, seq, labels):
    # Score of one label path of one sequence, as the CRF defines it.
    score = sum(seq[t, y] for t, y in enumerate(labels))
    return score + sum(cost[a, b] for a, b in zip(labels[:-1], labels[1:]))


def _brute_force(cost, seq, labels):
    # Negative log-likelihood of ``labels``, the best path and its score,
    # by enumerating every label path (float64).
    n_label = cost.shape[0]
    paths = list(itertools.product(range(n_label), repeat=len(seq)))
    scores = numpy.array([_path_score(cost, seq, p) for p in paths])
    log_z = numpy.log(numpy.exp(scores).sum())
    best = int(numpy.argmax(scores))
    return log_z - _path_score(cost, seq, labels), list(paths[best]), scores[best]


def _unsorted_batch(lengths, n_label=3, seed=0):
    rng = numpy.random.RandomState(seed)
    cost = rng.uniform(-1, 1, (n_label, n_label))
    seqs = [rng.uniform(-1, 1, (n, n_label)) for n in lengths]
    labels = [rng.randint(0, n_label, n).astype(numpy.int32) for n in lengths]
    return cost, seqs, labels


def _float64_link(cost):
    # float64 throughout, so that the brute-force reference can be tight.
    with chainerlite.using_config('dtype', numpy.float64):
        return links.CRF1d(cost.shape[0], initial_cost=cost)


# Sequences in an order other than by decreasing length, as Chainer's
# examples pass them (a minibatch in dataset order).
_UNSORTED_LENGTHS = [2, 4, 1, 3, 4]


def test_transpose_accepts_sequences_in_any_order():
    cost, seqs, labels = _unsorted_batch(_UNSORTED_LENGTHS)
    link = _float64_link(cost)
    expected = [_brute_force(cost, s, y)[0] for s, y in zip(seqs, labels)]
    # As in Chainer, the per-sequence losses come longest first.
    order = numpy.argsort([-n for n in _UNSORTED_LENGTHS])
    losses = link(seqs, labels, reduce='no', transpose=True)
    numpy.testing.assert_allclose(
        losses.array, numpy.array(expected)[order], rtol=1e-10
    )
    mean = link(seqs, labels, transpose=True)
    numpy.testing.assert_allclose(mean.array, numpy.mean(expected), rtol=1e-10)


def test_transpose_argmax_returns_paths_in_input_order():
    cost, seqs, _ = _unsorted_batch(_UNSORTED_LENGTHS)
    link = _float64_link(cost)
    expected = [_brute_force(cost, s, numpy.zeros(len(s), numpy.int32)) for s in seqs]
    score, path = link.argmax(seqs, transpose=True)
    assert [p.tolist() for p in path] == [best for _, best, _ in expected]
    assert all(p.dtype == numpy.int32 for p in path)
    # The scores stay longest first, as Chainer leaves them.
    order = numpy.argsort([-n for n in _UNSORTED_LENGTHS])
    best_scores = numpy.array([s for _, _, s in expected])[order]
    numpy.testing.assert_allclose(score.array, best_scores, rtol=1e-10)


def test_transpose_backward_reaches_each_sequence():
    cost, seqs, labels = _unsorted_batch(_UNSORTED_LENGTHS, seed=1)
    link = _float64_link(cost)

    def loss(*xs):
        return link(list(xs), labels, reduce='no', transpose=True)

    gy = numpy.random.RandomState(2).uniform(-1, 1, len(seqs))
    gradient_check.check_backward(
        loss, tuple(seqs), gy, params=(link.cost,), eps=1e-6, atol=1e-7, rtol=1e-6
    )


def test_transpose_bad_inputs():
    cost, seqs, labels = _unsorted_batch([2, 3])
    link = _float64_link(cost)
    with pytest.raises(ValueError, match='xs has 2 sequences but ys has 1'):
        link(seqs, labels[:1], transpose=True)
    with pytest.raises(ValueError, match='CRF1d.forward: .*non-empty list'):
        link([], [], transpose=True)
    with pytest.raises(ValueError, match='CRF1d.argmax: .*non-empty list'):
        link.argmax([], transpose=True)
