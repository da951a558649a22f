import numpy

import chainerlite
import chainerlite.links as L


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def test_steps_match_reference_with_the_masks_used():
    link = L.StatefulZoneoutLSTM(3, 2, c_ratio=0.3, h_ratio=0.6)
    link.upward.W.array[...] = numpy.random.uniform(-1, 1, (8, 3))
    link.lateral.W.array[...] = numpy.random.uniform(-1, 1, (8, 2))
    x = numpy.random.uniform(-1, 1, (5, 3)).astype(numpy.float32)
    c = h = numpy.zeros((5, 2), numpy.float32)
    for _ in range(2):
        y = link(x)
        gates = x @ link.upward.W.array.T + h @ link.lateral.W.array.T
        a, i, f, o = (gates.reshape(5, 2, 4)[:, :, k] for k in range(4))
        c_new = numpy.tanh(a) * _sigmoid(i) + _sigmoid(f) * c
        h_new = _sigmoid(o) * numpy.tanh(c_new)
        keep_c, keep_h = link.c.creator.flag_h, y.creator.flag_h
        c = numpy.where(keep_c, c, c_new)
        h = numpy.where(keep_h, h, h_new)
        numpy.testing.assert_allclose(link.c.array, c, rtol=1e-5, atol=1e-6)
        numpy.testing.assert_allclose(y.array, h, rtol=1e-5, atol=1e-6)


def test_test_mode_is_a_plain_lstm_and_gradients_flow():
    link = L.StatefulZoneoutLSTM(3, 2)
    x = chainerlite.Variable(numpy.ones((2, 3), numpy.float32))
    with chainerlite.using_config('train', False):
        y = link(x)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert x.grad.shape == (2, 3) and link.upward.W.grad is not None
    link.reset_state()
    assert link.c is None and link.h is None
