import itertools

import numpy
import pytest

import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.utils import type_check


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


@pytest.mark.parametrize(
    'cost_shape, x_shape, error',
    [
        ((), (3, 2), IndexError),  # Chainer 7.8.1 reads cost.shape[0]
        ((2, 2), (3,), IndexError),  # and xs[0].shape[1]
        ((2, 2), (3, 3), AssertionError),  # and asserts that they agree
    ],
)
def test_crf1d_shapes_raise_chainers_type(cost_shape, x_shape, error):
    cost = numpy.zeros(cost_shape, numpy.float32)
    x = numpy.zeros(x_shape, numpy.float32)
    with pytest.raises(error, match='crf1d') as info:
        F.crf1d(cost, [x], [numpy.zeros(3, numpy.int32)])
    assert isinstance(info.value, type_check.InvalidType)


@pytest.mark.parametrize(
    'x_shapes, error',
    [
        ([()], type_check.InvalidType),  # one step: an argmax over axis 1
        ([(3,)], type_check.InvalidType),
        ([(), ()], IndexError),  # more: the batch sizes are read
        ([(3, 2, 2), (3, 2, 2)], type_check.InvalidType),
    ],
)
def test_argmax_crf1d_shapes_raise_chainers_type(x_shapes, error):
    cost = numpy.zeros((2, 2), numpy.float32)
    xs = [numpy.zeros(s, numpy.float32) for s in x_shapes]
    with pytest.raises(error, match='argmax_crf1d') as info:
        F.argmax_crf1d(cost, xs)
    assert isinstance(info.value, type_check.InvalidType)
    if error is type_check.InvalidType:
        assert not isinstance(info.value, IndexError)


def test_argmax_crf1d_one_step_of_more_axes():
    # as Chainer 7.8.1: the best label over axis 1 of each
    x = numpy.arange(12, dtype=numpy.float32).reshape(2, 3, 2) % 5
    score, path = F.argmax_crf1d(numpy.zeros((3, 3), numpy.float32), [x])
    numpy.testing.assert_array_equal(score.array, x.max(axis=1))
    numpy.testing.assert_array_equal(path[0], x.argmax(axis=1))
