"""F.forget given a function that clears the function hooks (or deletes
the ones it did not register): Chainer's forget registers no hook, so the
function runs there; chainerlite's hooks of forget (the trace of the
forward call, the replayer of the recomputation) notice that they left the
registry and the recomputation then runs every node again."""

from unittest import mock

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite.functions.activation.relu import ReLU


def _clearing(at, only_recomputing=False):
    # a function of three nodes (ReLU, tanh, exp) clearing the hooks before
    # node ``at`` (0-3: 3 is after the last)
    def func(x):
        h = x
        for k, f in enumerate((F.relu, F.tanh, F.exp)):
            if k == at and (chainerlite.config.in_recomputing or not only_recomputing):
                chainerlite.get_function_hooks().clear()
            h = f(h) * 2
        return h

    return func


def _expected(x):
    v = chainerlite.Variable(x)
    y = _clearing(None)(v)
    F.sum(y * y).backward()
    return y.array, v.grad


def _through_forget(func, x, **kwargs):
    v = chainerlite.Variable(x)
    y = F.forget(func, v, **kwargs)
    F.sum(y * y).backward()
    return y.array, v.grad


_X = numpy.linspace(-1, 1, 12, dtype=numpy.float32).reshape(3, 4)


@pytest.mark.parametrize('at', [0, 1, 2, 3])
@pytest.mark.parametrize('keep', [None, ReLU])
@pytest.mark.parametrize('only_recomputing', [False, True])
def test_values_and_gradients_as_without_forget(at, keep, only_recomputing):
    func = _clearing(at, only_recomputing)
    y, gx = _through_forget(func, _X, keep=keep)
    want_y, want_gx = _expected(_X)
    numpy.testing.assert_allclose(y, want_y, rtol=1e-6)
    numpy.testing.assert_allclose(gx, want_gx, rtol=1e-6)
    assert dict(chainerlite.get_function_hooks()) == {}


@pytest.mark.parametrize('at', [0, 2, 3])
def test_nested_forget(at):
    inner = _clearing(at)

    def outer(x):
        return F.sin(F.forget(inner, x)) * F.forget(F.cos, x)

    v = chainerlite.Variable(_X)
    y = F.forget(outer, v)
    F.sum(y).backward()
    w = chainerlite.Variable(_X)
    want = F.sin(_clearing(None)(w)) * F.cos(w)
    F.sum(want).backward()
    numpy.testing.assert_allclose(y.array, want.array, rtol=1e-6)
    numpy.testing.assert_allclose(v.grad, w.grad, rtol=1e-6)
    assert dict(chainerlite.get_function_hooks()) == {}


def test_a_forget_after_it_traces_again():
    # the registry works on: a later forget keeps what it is asked to keep
    _through_forget(_clearing(1), _X, keep=ReLU)
    calls = []
    forward = ReLU.forward

    def counted(node, inputs):
        calls.append(type(node))
        return forward(node, inputs)

    with mock.patch.object(ReLU, 'forward', counted):
        y, gx = _through_forget(_clearing(None), _X, keep=ReLU)
    assert calls == [ReLU]  # in the forward call only: kept
    numpy.testing.assert_allclose(gx, _expected(_X)[1], rtol=1e-6)
