import numpy
import pytest

import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.utils import type_check


@pytest.mark.parametrize(
    'lengths, shape', [([4, 2, 2, 1], ()), ([3, 1, 0], (2,)), ([2], (2, 3))]
)
def test_forward_and_backward(lengths, shape):
    xs = [numpy.random.uniform(-1, 1, (n,) + shape) for n in lengths]
    ys = F.transpose_sequence(xs)
    assert len(ys) == lengths[0]
    for t, y in enumerate(ys):
        expected = [x[t] for x in xs if len(x) > t]
        numpy.testing.assert_array_equal(y.array, numpy.stack(expected))
    back = F.transpose_sequence(ys)
    for x, y in zip(xs, back):
        numpy.testing.assert_array_equal(x, y.array)

    gys = tuple(numpy.random.uniform(-1, 1, y.shape) for y in ys)
    ggs = tuple(numpy.random.uniform(-1, 1, x.shape) for x in xs)

    def f(*xs):
        return F.transpose_sequence(xs)

    gradient_check.check_backward(f, tuple(xs), gys)
    gradient_check.check_double_backward(f, tuple(xs), gys, ggs)


def test_gradient_of_some_steps_only():
    xs = [numpy.random.uniform(-1, 1, (n, 2)) for n in (3, 1)]
    gradient_check.check_backward(
        lambda *xs: F.transpose_sequence(xs)[1],
        tuple(xs),
        numpy.random.uniform(-1, 1, (1, 2)),
    )


@pytest.mark.parametrize('lengths', [[], [0, 0]])
def test_no_steps(lengths):
    assert F.transpose_sequence([numpy.zeros(n) for n in lengths]) == ()


def test_unsorted_lengths_are_an_error():
    with pytest.raises(ValueError, match='transpose_sequence'):
        F.transpose_sequence([numpy.zeros(1), numpy.zeros(2)])


def test_mixed_dtypes_are_invalid():
    with pytest.raises(type_check.InvalidType, match='TransposeSequence'):
        F.transpose_sequence([numpy.zeros(2), numpy.zeros(1, numpy.int32)])
