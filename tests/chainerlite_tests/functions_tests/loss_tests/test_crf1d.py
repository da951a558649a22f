import itertools

import numpy
import pytest

import chainerlite.functions as F
from chainerlite import gradient_check


def _score(cost, xs, b, labels):
    return sum(x[b, y] for x, y in zip(xs, labels)) + sum(
        cost[p, q] for p, q in zip(labels[:-1], labels[1:])
    )


def _problem(lengths, n_label=3):
    batches = [sum(length > t for length in lengths) for t in range(max(lengths))]
    cost = numpy.random.uniform(-1, 1, (n_label, n_label))
    xs = [numpy.random.uniform(-1, 1, (b, n_label)) for b in batches]
    ys = [numpy.random.randint(0, n_label, b).astype(numpy.int32) for b in batches]
    return cost, xs, ys


@pytest.mark.parametrize('lengths', [[3, 3], [3, 2, 1], [1, 1]])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_forward_backward_and_argmax(lengths, reduce):
    cost, xs, ys = _problem(lengths)
    loss = numpy.empty(len(lengths))
    best = []
    for b, length in enumerate(lengths):
        scores = {
            seq: _score(cost, xs, b, seq)
            for seq in itertools.product(range(3), repeat=length)
        }
        log_z = numpy.log(sum(numpy.exp(s) for s in scores.values()))
        gold = tuple(int(ys[t][b]) for t in range(length))
        loss[b] = log_z - scores[gold]
        best.append(max(scores, key=scores.get))
    y = F.crf1d(cost, xs, ys, reduce=reduce)
    expected = loss.mean() if reduce == 'mean' else loss
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-10)

    def f(cost, *xs):
        return F.crf1d(cost, xs, ys, reduce=reduce)

    gy = None if reduce == 'mean' else numpy.random.uniform(-1, 1, len(lengths))
    gradient_check.check_backward(f, [cost] + xs, gy, atol=1e-5, rtol=1e-5)

    s, path = F.argmax_crf1d(cost, xs)
    for b, seq in enumerate(best):
        assert s.array[b] == pytest.approx(_score(cost, xs, b, seq))
        assert tuple(int(path[t][b]) for t in range(len(seq))) == seq
    assert [p.shape for p in path] == [x.shape[:1] for x in xs]
    assert all(p.dtype == numpy.int32 for p in path)


def test_invalid_arguments():
    cost, xs, ys = _problem([2, 2])
    with pytest.raises(ValueError, match='reduce'):
        F.crf1d(cost, xs, ys, 'invalid_option')
    with pytest.raises(ValueError, match='batch sizes'):
        F.crf1d(
            cost,
            [numpy.zeros((1, 3)), numpy.zeros((2, 3))],
            [numpy.zeros(1, numpy.int32), numpy.zeros(2, numpy.int32)],
        )
