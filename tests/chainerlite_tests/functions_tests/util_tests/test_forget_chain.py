"""F.forget(..., chain=True): an input made by another forget is computed
again during backward rather than kept."""

import weakref

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.functions.util import forget


def _params(seed=0):
    rng = numpy.random.RandomState(seed)
    return [chainerlite.Variable(rng.randn(5, 5)) for _ in range(3)]


def _first(W):
    # a dropout inside: its mask must be the same when the output is made
    # again for the chained forget and when this forget recomputes itself
    return lambda a: F.dropout(F.tanh(F.matmul(a, W)), 0.5)


def _second(W):
    return lambda a: F.sigmoid(F.matmul(a, W))


def _grads(chain, release, seed=1):
    Ws = _params()
    x = chainerlite.Variable(numpy.random.RandomState(2).randn(4, 5))
    numpy.random.seed(seed)
    h = F.forget(_first(Ws[0]), x)
    made = weakref.ref(h.array)
    y = F.forget(_second(Ws[1]), h, chain=chain)
    z = F.forget(_second(Ws[2]), y, chain=chain)
    del h
    held = made() is not None
    with chainerlite.using_config('retain_graph', not release):
        F.sum(z * z).backward()
    return held, [x.grad] + [W.grad for W in Ws], (y.creator, z.creator)


@pytest.mark.parametrize('release', [False, True])
def test_a_chained_input_is_not_kept_and_the_gradients_are_the_same(release):
    held, plain, _ = _grads(False, release)
    dropped, chained, (second, third) = _grads(True, release)
    assert held and not dropped
    for a, b in zip(plain, chained):
        numpy.testing.assert_array_equal(a, b)
    assert second._chained == {0}
    # the third forget's input was made by a chained forget (which keeps
    # nothing to make it from): it is kept
    assert third._chained == frozenset()


def test_inputs_not_made_by_forget_are_kept():
    x = chainerlite.Variable(numpy.ones((2, 3)))
    y = F.forget(lambda a: a * 2, x * 1, chain=True)
    assert y.creator._chained == frozenset()
    assert isinstance(y.creator, forget.Forget)


def test_double_backprop_through_a_chained_forget():
    Ws = _params()
    x = numpy.random.RandomState(2).randn(4, 5)
    gy = numpy.random.RandomState(3).randn(4, 5)
    ggx = numpy.random.RandomState(4).randn(4, 5)

    def f(a):
        h = F.forget(_second(Ws[0]), a)
        return F.forget(_second(Ws[1]), h, chain=True)

    gradient_check.check_double_backward(f, x, gy, ggx, atol=1e-6, rtol=1e-5)


def test_second_order_gradients_equal_the_unchained_ones():
    def run(chain):
        Ws = _params()
        x = chainerlite.Variable(numpy.random.RandomState(2).randn(4, 5))
        h = F.forget(_second(Ws[0]), x)
        y = F.forget(_second(Ws[1]), h, chain=chain)
        (gx,) = chainerlite.grad([F.sum(y * y)], [x], enable_double_backprop=True)
        F.sum(gx * gx).backward()
        return [W.grad for W in Ws[:2]]

    for a, b in zip(run(False), run(True)):
        numpy.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
