import numpy

import chainerlite
import chainerlite.links as L
from chainerlite import gradient_check


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _peephole_reference(link, c, h, x):
    gates = x @ link.upward.W.array.T + link.upward.b.array
    gates += h @ link.lateral.W.array.T
    a, i, f, o = (gates.reshape(len(x), -1, 4)[:, :, k] for k in range(4))
    i = _sigmoid(i + c @ link.peep_i.W.array.T)
    f = _sigmoid(f + c @ link.peep_f.W.array.T)
    c = numpy.tanh(a) * i + f * c
    o = _sigmoid(o + c @ link.peep_o.W.array.T)
    return c, o * numpy.tanh(c)


def test_steps_match_reference():
    link = L.StatefulPeepholeLSTM(3, 2)
    for p in link.params():
        p.array[...] = numpy.random.uniform(-1, 1, p.shape)
    x = numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float32)
    c = h = numpy.zeros((4, 2), numpy.float32)
    for _ in range(2):
        c, h = _peephole_reference(link, c, h, x)
        y = link(x)
        numpy.testing.assert_allclose(y.array, h, rtol=1e-5, atol=1e-6)
        numpy.testing.assert_allclose(link.c.array, c, rtol=1e-5, atol=1e-6)
    link.reset_state()
    assert link.c is None and link.h is None


def test_backward():
    with chainerlite.using_config('dtype', numpy.float64):
        link = L.StatefulPeepholeLSTM(3, 2)

    def f(x):
        link.reset_state()
        link(x)
        return link(x)

    gradient_check.check_backward(
        f,
        numpy.random.uniform(-1, 1, (4, 3)),
        numpy.random.uniform(-1, 1, (4, 2)),
        params=tuple(link.params()),
    )
