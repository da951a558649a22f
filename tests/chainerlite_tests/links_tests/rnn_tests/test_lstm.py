import numpy
import pytest

import chainerlite
import chainerlite.links as L
from chainerlite import gradient_check
from chainerlite import initializers
from chainerlite.testing import attr


def _sigmoid(a):
    return 1 / (1 + numpy.exp(-a))


def _step(rnn, x, c, h):
    # NumPy LSTM step: gate k of unit j is channel 4 * j + k.
    gates = x @ rnn.upward.W.array.T + rnn.upward.b.array
    if h is not None:
        gates[: len(h)] += h[: len(x)] @ rnn.lateral.W.array.T
    gates = gates.reshape(len(x), -1, 4)
    a, i, f, o = (gates[:, :, k] for k in range(4))
    c_prev = numpy.zeros_like(a) if c is None else c[: len(x)]
    c_new = numpy.tanh(a) * _sigmoid(i) + _sigmoid(f) * c_prev
    y = _sigmoid(o) * numpy.tanh(c_new)
    if c is not None and len(c) > len(x):
        return (
            numpy.concatenate([c_new, c[len(x) :]]),
            numpy.concatenate([y, h[len(x) :]]),
            y,
        )
    return c_new, y, y


def _randomize(rnn):
    for param in rnn.params():
        param.array[...] = numpy.random.uniform(-1, 1, param.shape)


def _x(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


def test_structure_and_default_initialization():
    rnn = L.LSTM(3, 4)
    assert rnn.state_size == 4
    assert [name for name, _ in rnn.namedparams()] == [
        '/lateral/W',
        '/upward/W',
        '/upward/b',
    ]
    assert rnn.upward.W.shape == (16, 3)
    assert rnn.lateral.W.shape == (16, 4)
    assert rnn.lateral.b is None
    gates = rnn.upward.b.array.reshape(4, 4)
    numpy.testing.assert_array_equal(gates[:, 2], numpy.ones(4))
    numpy.testing.assert_array_equal(gates[:, [0, 1, 3]], numpy.zeros((4, 3)))
    assert not (rnn.upward.W.array == 0).all()
    assert not (rnn.lateral.W.array == 0).all()
    assert rnn.c is None and rnn.h is None


def test_custom_initializers():
    rnn = L.LSTM(
        3,
        2,
        lateral_init=initializers.Constant(0.5),
        upward_init=2.0,
        bias_init=initializers.Constant(-1),
        forget_bias_init=3,
    )
    numpy.testing.assert_array_equal(rnn.lateral.W.array, numpy.full((8, 2), 0.5))
    numpy.testing.assert_array_equal(rnn.upward.W.array, numpy.full((8, 3), 2))
    numpy.testing.assert_array_equal(rnn.upward.b.array, [-1, -1, 3, -1] * 2)


def test_blocks_are_initialized_as_separate_matrices():
    # LeCunNormal scales by the fan-in of each block, not of the whole W
    numpy.random.seed(0)
    rnn = L.LSTM(400, 100)
    for k in range(4):
        block = rnn.lateral.W.array[k * 100 : (k + 1) * 100]
        assert abs(float(block.std()) - 0.1) < 0.01


def test_forward_keeps_state():
    rnn = L.LSTM(3, 4)
    _randomize(rnn)
    c = h = None
    for x in (_x(2, 3), _x(2, 3), _x(2, 3)):
        c, h, y_expected = _step(rnn, x, c, h)
        y = rnn(x)
        numpy.testing.assert_allclose(y.array, y_expected, rtol=1e-5, atol=1e-6)
        numpy.testing.assert_allclose(rnn.c.array, c, rtol=1e-5, atol=1e-6)
        assert rnn.h is y


def test_shrinking_batch_updates_the_first_rows():
    rnn = L.LSTM(3, 4)
    _randomize(rnn)
    x1, x2 = _x(3, 3), _x(2, 3)
    c, h, _ = _step(rnn, x1, None, None)
    c, h, y_expected = _step(rnn, x2, c, h)
    rnn(x1)
    y = rnn(x2)
    assert y.shape == (2, 4)
    numpy.testing.assert_allclose(y.array, y_expected, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(rnn.h.array, h, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(rnn.c.array, c, rtol=1e-5, atol=1e-6)
    with pytest.raises(TypeError, match='batch size'):
        rnn(_x(4, 3))


def test_reset_and_set_state():
    rnn = L.LSTM(3, 2)
    rnn(_x(1, 3))
    rnn.reset_state()
    assert rnn.c is None and rnn.h is None
    c = chainerlite.Variable(_x(1, 2))
    h = chainerlite.Variable(_x(1, 2))
    rnn.set_state(c, h)
    assert rnn.c is c and rnn.h is h
    x = _x(1, 3)
    _, _, y_expected = _step(rnn, x, c.array, h.array)
    numpy.testing.assert_allclose(rnn(x).array, y_expected, rtol=1e-5, atol=1e-6)
    with pytest.raises(TypeError, match='Variable'):
        rnn.set_state(c.array, h)


@pytest.mark.parametrize('args', [(4,), (None, 4)])
def test_lazy_in_size(args):
    rnn = L.LSTM(*args, upward_init=initializers.Constant(0.25))
    assert rnn.upward.W.array is None
    y = rnn(_x(2, 5))
    assert y.shape == (2, 4)
    numpy.testing.assert_array_equal(rnn.upward.W.array, numpy.full((16, 5), 0.25))


def test_parameter_gradients_through_two_steps():
    rnn = L.LSTM(3, 2)
    _randomize(rnn)

    def two_steps(x1, x2):
        rnn.reset_state()
        rnn(x1)
        return rnn(x2)

    gradient_check.check_backward(
        two_steps,
        (_x(2, 3), _x(2, 3)),
        _x(2, 2),
        params=tuple(rnn.params()),
        dtype=numpy.float64,
        atol=1e-4,
        rtol=1e-3,
    )


def test_to_device_moves_state():
    rnn = L.LSTM(3, 2)
    rnn(_x(1, 3))
    assert rnn.to_device('@numpy') is rnn
    assert isinstance(rnn.h.array, numpy.ndarray)
    assert rnn.upward.device == chainerlite.backend.CpuDevice()


def test_state_is_not_serialized(roundtrip):
    src, dst = L.LSTM(3, 2), L.LSTM(3, 2)
    src(_x(1, 3))
    saved = roundtrip(src, dst)
    assert sorted(saved) == ['lateral/W', 'upward/W', 'upward/b']
    assert dst.h is None
    numpy.testing.assert_array_equal(dst.lateral.W.array, src.lateral.W.array)


@attr.gpu
def test_on_gpu():
    import cupy

    rnn = L.LSTM(None, 2)
    rnn.to_device('@cupy:0')
    y = rnn(cupy.asarray(_x(3, 4)))
    assert isinstance(rnn.upward.W.array, cupy.ndarray)
    assert isinstance(y.array, cupy.ndarray)
    rnn(cupy.asarray(_x(2, 4)))
    rnn.to_device('@numpy')
    assert isinstance(rnn.h.array, numpy.ndarray)
    assert isinstance(rnn.c.array, numpy.ndarray)
    assert rnn(_x(1, 4)).shape == (1, 2)


def test_stateless_lstm_steps_like_lstm():
    stateless = L.StatelessLSTM(3, 4)
    stateful = L.LSTM(3, 4)
    stateful.copyparams(stateless)
    x = numpy.random.uniform(-1, 1, (2, 3)).astype(numpy.float32)
    c, h = stateless(None, None, x)
    for _ in range(2):
        numpy.testing.assert_allclose(h.array, stateful(x).array)
        numpy.testing.assert_allclose(c.array, stateful.c.array)
        c, h = stateless(c, h, x)


def test_stateless_lstm_infers_in_size():
    link = L.StatelessLSTM(4)
    c, h = link(None, None, numpy.ones((2, 5), numpy.float32))
    assert link.upward.W.shape == (16, 5) and h.shape == (2, 4)


def test_bias_initializers_get_each_gate_as_chainer_does():
    # a view of shape (1, out_size, 1) per gate: an array of shape
    # (out_size, 1) fills it, one of shape (out_size,) does not broadcast
    # there, and initializers that take fans work on it
    link = L.LSTM(3, 2, bias_init=numpy.array([[1.0], [2.0]]), forget_bias_init=5)
    numpy.testing.assert_array_equal(
        link.upward.b.array.reshape(2, 4), [[1, 1, 5, 1], [2, 2, 5, 2]]
    )
    with pytest.raises(ValueError):
        L.LSTM(3, 2, bias_init=numpy.array([1.0, 2.0]))
    seen = []
    L.LSTM(3, 2, bias_init=lambda a: seen.append(a.shape))
    assert seen == [(1, 2, 1)] * 3
    link = L.LSTM(3, 4, bias_init=initializers.LeCunNormal())
    assert link.upward.b.array.reshape(4, 4)[:, 2].tolist() == [1, 1, 1, 1]
