"""n_step_rnn, n_step_lstm, n_step_gru and their bidirectional forms (they
share one implementation), against a NumPy reference run sequence by
sequence."""

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _rnn_step(act):
    def step(x, state, w, b):
        (h,) = state
        return (act(x @ w[0].T + b[0] + h @ w[1].T + b[1]),)

    return step


def _lstm_step(x, state, w, b):
    h, c = state
    i, f, a, o = (x @ w[k].T + h @ w[k + 4].T + b[k] + b[k + 4] for k in range(4))
    c = _sigmoid(f) * c + _sigmoid(i) * numpy.tanh(a)
    return _sigmoid(o) * numpy.tanh(c), c


def _gru_step(x, state, w, b):
    (h,) = state
    r = _sigmoid(x @ w[0].T + b[0] + h @ w[3].T + b[3])
    z = _sigmoid(x @ w[1].T + b[1] + h @ w[4].T + b[4])
    h_bar = numpy.tanh(x @ w[2].T + b[2] + r * (h @ w[5].T + b[5]))
    return ((1 - z) * h_bar + z * h,)


# kind: (function, its reference step, weights per layer, number of states)
KINDS = {
    'rnn_tanh': (F.n_step_rnn, _rnn_step(numpy.tanh), 2, 1),
    'rnn_relu': (
        lambda *a: F.n_step_rnn(*a, activation='relu'),
        _rnn_step(lambda v: numpy.maximum(v, 0)),
        2,
        1,
    ),
    'birnn': (F.n_step_birnn, _rnn_step(numpy.tanh), 2, 1),
    'lstm': (F.n_step_lstm, _lstm_step, 8, 2),
    'bilstm': (F.n_step_bilstm, _lstm_step, 8, 2),
    'gru': (F.n_step_gru, _gru_step, 6, 1),
    'bigru': (F.n_step_bigru, _gru_step, 6, 1),
}


def _reference(step, n_layers, n_dirs, states, ws, bs, xs):
    # Runs every sequence on its own; xs is transposed (xs[t][i]).
    n_seq = states[0].shape[1]
    seqs = [[x[i] for x in xs if len(x) > i] for i in range(n_seq)]
    finals = [s.copy() for s in states]
    for layer in range(n_layers):
        outs = []
        for d in range(n_dirs):
            k = layer * n_dirs + d
            out = []
            for i, seq in enumerate(seqs):
                state = tuple(s[k, i : i + 1] for s in states)
                ys = []
                for x in seq[::-1] if d else seq:
                    state = step(x[None], state, ws[k], bs[k])
                    ys.append(state[0][0])
                for f, s in zip(finals, state):
                    f[k, i] = s[0]
                out.append(ys[::-1] if d else ys)
            outs.append(out)
        seqs = [
            [numpy.concatenate(parts) for parts in zip(*per_dir)]
            for per_dir in zip(*outs)
        ]
    ys = [numpy.stack([seq[t] for seq in seqs if len(seq) > t]) for t in range(len(xs))]
    return finals, ys


def _inputs(kind, n_layers, lengths, in_size=3, units=2):
    _, _, n_weights, n_states = KINDS[kind]
    n_dirs = 2 if kind.startswith('bi') else 1
    rand = numpy.random.uniform
    states = [
        rand(-1, 1, (n_layers * n_dirs, len(lengths), units)) for _ in range(n_states)
    ]
    xs = [
        rand(-1, 1, (sum(1 for n in lengths if n > t), in_size))
        for t in range(max(lengths))
    ]
    ws, bs = [], []
    for layer in range(n_layers):
        below = in_size if layer == 0 else units * n_dirs
        for _ in range(n_dirs):
            ws.append(
                [
                    rand(-1, 1, (units, below if j < n_weights // 2 else units))
                    for j in range(n_weights)
                ]
            )
            bs.append([rand(-1, 1, units) for _ in range(n_weights)])
    return n_dirs, states, ws, bs, xs


@pytest.mark.parametrize('kind', sorted(KINDS))
@pytest.mark.parametrize('n_layers, lengths', [(1, [1]), (2, [3, 3, 1])])
def test_forward_matches_reference(kind, n_layers, lengths):
    func, step, _, n_states = KINDS[kind]
    n_dirs, states, ws, bs, xs = _inputs(kind, n_layers, lengths)
    out = func(n_layers, 0.0, *states, ws, bs, xs)
    finals, ys = _reference(step, n_layers, n_dirs, states, ws, bs, xs)
    for got, expected in zip(out[:n_states], finals):
        numpy.testing.assert_allclose(got.array, expected, rtol=1e-6)
    # the outputs per time step come back as a tuple, as Chainer's do
    assert isinstance(out[-1], tuple)
    assert len(out[-1]) == len(ys)
    for got, expected in zip(out[-1], ys):
        numpy.testing.assert_allclose(got.array, expected, rtol=1e-6)


@pytest.mark.parametrize('kind', ['rnn_tanh', 'bilstm', 'gru'])
def test_backward(kind):
    func, _, _, n_states = KINDS[kind]
    n_dirs, states, ws, bs, xs = _inputs(kind, 2, [2, 1], units=2)
    n_ws = len(ws) * len(ws[0])
    flat_w = [w for layer in ws for w in layer]
    flat_b = [b for layer in bs for b in layer]

    def f(*args):
        ss = args[:n_states]
        w, b = args[n_states : n_states + n_ws], args[n_states + n_ws : -len(xs)]
        per = len(ws[0])
        out = func(
            2,
            0.0,
            *ss,
            [w[i : i + per] for i in range(0, n_ws, per)],
            [b[i : i + per] for i in range(0, n_ws, per)],
            list(args[-len(xs) :]),
        )
        return tuple(out[:-1]) + tuple(out[-1])

    inputs = tuple(states) + tuple(flat_w) + tuple(flat_b) + tuple(xs)
    ys = f(*[chainerlite.Variable(a) for a in inputs])
    gys = tuple(numpy.random.uniform(-1, 1, y.shape) for y in ys)
    gradient_check.check_backward(f, inputs, gys, atol=1e-4, rtol=1e-3)


def test_dropout_applies_to_the_layers_above_the_first():
    func = KINDS['lstm'][0]
    _, states, ws, bs, xs = _inputs('lstm', 1, [2, 1])
    with chainerlite.using_config('train', True):
        y1 = func(1, 0.9, *states, ws, bs, xs)[-1]
    y0 = func(1, 0.0, *states, ws, bs, xs)[-1]
    for a, b in zip(y1, y0):
        numpy.testing.assert_array_equal(a.array, b.array)
    _, states, ws, bs, xs = _inputs('lstm', 2, [4, 4])
    with chainerlite.using_config('train', True):
        y1 = func(2, 0.9, *states, ws, bs, xs)[-1]
    with chainerlite.using_config('train', False):
        y2 = func(2, 0.9, *states, ws, bs, xs)[-1]
    y0 = func(2, 0.0, *states, ws, bs, xs)[-1]
    assert any((a.array != b.array).any() for a, b in zip(y1, y0))
    for a, b in zip(y2, y0):
        numpy.testing.assert_array_equal(a.array, b.array)


@pytest.mark.parametrize('bi', [False, True])
def test_dropout_of_ratio_0_moves_the_stream_on_as_dropout_does(bi):
    # Chainer draws a mask even at ratio 0; here each layer above the first
    # and direction takes one seed, as F.dropout does, and the outputs and
    # gradients are those outside training mode.
    func = F.n_step_bilstm if bi else F.n_step_lstm
    n_dirs = 2 if bi else 1
    rand = numpy.random.uniform
    states = [rand(-1, 1, (3 * n_dirs, 2, 2)).astype(numpy.float32) for _ in '12']

    def width(i, k):  # columns of weight k of layer and direction i
        return 2 if k >= 4 else 3 if i < n_dirs else 2 * n_dirs

    ws = [
        [rand(-1, 1, (2, width(i, k))).astype(numpy.float32) for k in range(8)]
        for i in range(3 * n_dirs)
    ]
    bs = [[rand(-1, 1, 2).astype(numpy.float32) for _ in range(8)] for _ in ws]
    xs = [
        chainerlite.Variable(rand(-1, 1, (2, 3)).astype(numpy.float32))
        for _ in range(2)
    ]
    runs = []
    for train in (True, False):
        numpy.random.seed(3)
        with chainerlite.using_config('train', train):
            hy, cy, ys = func(3, 0.0, *states, ws, bs, xs)
        after = numpy.random.random_sample()
        for x in xs:
            x.cleargrad()
        F.sum(F.concat(ys, axis=0) * F.concat(ys, axis=0)).backward()
        runs.append(([y.array for y in ys], [x.grad.copy() for x in xs], after))
    numpy.random.seed(3)
    with chainerlite.using_config('train', True):
        for _ in range(2 * n_dirs):
            F.dropout(numpy.ones(3, numpy.float32), 0.0)
    assert runs[0][2] == numpy.random.random_sample() != runs[1][2]
    for a, b in zip(runs[0][0] + runs[0][1], runs[1][0] + runs[1][1]):
        numpy.testing.assert_array_equal(a, b)


def test_bad_inputs():
    _, (hx,), ws, bs, xs = _inputs('rnn_tanh', 2, [2, 1])
    with pytest.raises(ValueError, match='n_step_rnn: the batch sizes'):
        F.n_step_rnn(2, 0.0, hx, ws, bs, xs[::-1])
    with pytest.raises(ValueError, match='n_step_rnn: hx must have'):
        F.n_step_rnn(3, 0.0, hx, ws, bs, xs)
    with pytest.raises(ValueError, match='n_step_rnn: ws must hold'):
        F.n_step_rnn(2, 0.0, hx, ws[:1], bs, xs)
    with pytest.raises(ValueError, match='n_step_rnn: xs must be'):
        F.n_step_rnn(2, 0.0, hx, ws, bs, [])
    with pytest.raises(ValueError, match='activation'):
        F.n_step_rnn(2, 0.0, hx, ws, bs, xs, activation='sigmoid')
    with pytest.raises(ValueError, match='using_config'):
        F.n_step_rnn(2, 0.0, hx, ws, bs, xs, train=True)
    with pytest.raises(ValueError, match='n_step_bilstm: hx must have'):
        F.n_step_bilstm(2, 0.0, hx, hx, ws, bs, xs)


@pytest.mark.parametrize('kind', sorted(KINDS))
def test_states_with_fewer_rows_than_sequences(kind):
    # Chainer's cells add the step's input product to the state's, of
    # fewer rows: InvalidType (a ValueError as well, as before)
    fn = KINDS[kind][0]
    _, states, ws, bs, xs = _inputs(kind, 1, [2, 2, 1])
    short = [s[:, :1] for s in states]
    with pytest.raises(chainerlite.utils.type_check.InvalidType) as info:
        fn(1, 0.0, *short, ws, bs, xs)
    assert isinstance(info.value, ValueError)
    assert 'has 1 rows for 3 sequences' in str(info.value)
    ys = fn(1, 0.0, *states, ws, bs, xs)[-1]  # rows enough: runs
    assert [y.shape[0] for y in ys] == [3, 2]


@pytest.mark.parametrize(
    'name, n_weights, n_states, checked',
    [
        ('n_step_rnn', 2, 1, True),
        ('n_step_birnn', 2, 1, True),
        ('n_step_lstm', 8, 2, True),
        ('n_step_bilstm', 8, 2, True),
        ('n_step_gru', 6, 1, False),
        ('n_step_bigru', 6, 1, False),
    ],
)
def test_an_input_size_other_than_the_weights(name, n_weights, n_states, checked):
    # Chainer's n_step_rnn and n_step_lstm (and bidirectional forms) check
    # the input size first; its n_step_gru fails in the type check of the
    # first linear
    dirs = 2 if 'bi' in name else 1
    ws = [
        [
            numpy.ones((2, 3 if j < n_weights // 2 else 2), numpy.float32)
            for j in range(n_weights)
        ]
        for _ in range(dirs)
    ]
    bs = [[numpy.zeros(2, numpy.float32)] * n_weights for _ in range(dirs)]
    hx = numpy.zeros((dirs, 1, 2), numpy.float32)
    xs = [numpy.ones((1, 4), numpy.float32)]
    args = (1, 0.0) + (hx,) * n_states + (ws, bs, xs)
    if checked:
        with pytest.raises(ValueError, match='Inconsistent input size.*4 != 3'):
            getattr(F, name)(*args)
    else:
        with pytest.raises(chainerlite.utils.type_check.InvalidType):
            getattr(F, name)(*args)
