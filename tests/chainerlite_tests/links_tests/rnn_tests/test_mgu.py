import numpy
import pytest

import chainerlite
import chainerlite.links as L
from chainerlite import gradient_check


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _mgu_reference(link, h, x):
    def linear(layer, v):
        return v @ layer.W.array.T + layer.b.array

    f = _sigmoid(linear(link.W_f, numpy.concatenate([h, x], axis=1)))
    h_bar = numpy.tanh(linear(link.W_h, numpy.concatenate([f * h, x], axis=1)))
    return f * h_bar + (1 - f) * h


def test_stateless_mgu_matches_reference_and_backward():
    with chainerlite.using_config('dtype', numpy.float64):
        link = L.StatelessMGU(n_inputs=3, n_units=4)  # Chainer's names
    assert link.W_f.W.shape == link.W_h.W.shape == (4, 7)
    link.W_f.b.array[...] = numpy.random.uniform(-1, 1, 4)
    h = numpy.random.uniform(-1, 1, (2, 4))
    x = numpy.random.uniform(-1, 1, (2, 3))
    numpy.testing.assert_allclose(
        link(h, x).array, _mgu_reference(link, h, x), rtol=1e-5
    )
    gradient_check.check_backward(
        link, (h, x), numpy.random.uniform(-1, 1, (2, 4)), params=tuple(link.params())
    )


def test_stateful_mgu_steps_from_zero():
    link = L.StatefulMGU(3, 4)
    x = numpy.random.uniform(-1, 1, (2, 3)).astype(numpy.float32)
    h = numpy.zeros((2, 4), numpy.float32)
    for _ in range(2):
        h = _mgu_reference(link, h, x)
        numpy.testing.assert_allclose(link(x).array, h, rtol=1e-5)
    y = link(x[:1])
    assert y.shape == (1, 4) and link.h.shape == (2, 4)
    link.set_state(chainerlite.Variable(h))
    with pytest.raises(TypeError, match='batch size of x'):
        link(numpy.ones((3, 3), numpy.float32))
    link.reset_state()
    assert link.h is None
