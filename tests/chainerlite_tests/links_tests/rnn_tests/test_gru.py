import numpy
import pytest

import chainerlite
import chainerlite.links as L
from chainerlite import gradient_check


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _linear(layer, x):
    return x @ layer.W.array.T + layer.b.array


def _gru_reference(link, h, x):
    r = _sigmoid(_linear(link.W_r, x) + _linear(link.U_r, h))
    z = _sigmoid(_linear(link.W_z, x) + _linear(link.U_z, h))
    h_bar = numpy.tanh(_linear(link.W, x) + _linear(link.U, r * h))
    return (1 - z) * h + z * h_bar


def _randomize(link):
    for p in link.params():
        p.array[...] = numpy.random.uniform(-1, 1, p.shape)
    return link


def test_stateless_gru_matches_reference_and_backward():
    with chainerlite.using_config('dtype', numpy.float64):
        link = _randomize(L.StatelessGRU(3, 4, bias_init=0.5))
    h = numpy.random.uniform(-1, 1, (2, 4))
    x = numpy.random.uniform(-1, 1, (2, 3))
    numpy.testing.assert_allclose(
        link(h, x).array, _gru_reference(link, h, x), rtol=1e-5
    )
    gradient_check.check_backward(
        link, (h, x), numpy.random.uniform(-1, 1, (2, 4)), params=tuple(link.params())
    )


def test_stateless_gru_infers_in_size():
    link = L.StatelessGRU(None, 4)
    x = numpy.ones((2, 5), numpy.float32)
    assert link(numpy.zeros((2, 4), numpy.float32), x).shape == (2, 4)
    assert link.W.W.shape == (4, 5)


@pytest.mark.parametrize('cls', [L.StatefulGRU, L.GRU])
def test_stateful_gru_steps_from_its_state(cls):
    link = _randomize(cls(3, 4))
    xs = numpy.random.uniform(-1, 1, (3, 2, 3)).astype(numpy.float32)
    # The first step has no state: the U layers (and their biases) are
    # left out.
    h = _sigmoid(_linear(link.W_z, xs[0])) * numpy.tanh(_linear(link.W, xs[0]))
    for t, x in enumerate(xs):
        if t:
            h = _gru_reference(link, h, x)
        y = link(x)
        numpy.testing.assert_allclose(y.array, h, rtol=1e-5, atol=1e-6)
        assert link.h is y
    previous = link.h.array
    y = link(xs[0][:1])
    assert y.shape == (1, 4) and link.h.shape == (2, 4)
    numpy.testing.assert_array_equal(link.h.array[1], previous[1])
    link.reset_state()
    assert link.h is None


def test_stateful_gru_set_state():
    link = L.StatefulGRU(3, 4)
    h = chainerlite.Variable(numpy.ones((2, 4), numpy.float32))
    link.set_state(h)
    assert link.h is h
    with pytest.raises(TypeError, match='h must be a Variable'):
        link.set_state(h.array)
    with pytest.raises(TypeError, match='batch size of x'):
        link(numpy.ones((3, 3), numpy.float32))


@pytest.mark.parametrize('n_args', [0, 2])
def test_gru_takes_one_argument(n_args):
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(ValueError, match='GRU takes one argument'):
        L.GRU(3, 4)(*[x] * n_args)


@pytest.mark.parametrize('cls', [L.StatefulGRU, L.GRU])
def test_stateful_gru_has_chainers_state_size(cls):
    assert cls(3, 5).state_size == 5
