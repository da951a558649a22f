"""The n-step RNN family runs each layer and direction as one Recurrence
node (chainerlite/functions/rnn/_recurrence.py): results against Chainer
7.8.1's recorded ones (dropout masks included), against the graph of
per-step nodes the node replaces, and gradients of first and second order
against finite differences."""

import pathlib
import sys

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite._kernels import packed_gemm
from chainerlite.functions.rnn import _recurrence
from chainerlite.functions.rnn import n_step_gru
from chainerlite.functions.rnn import n_step_lstm
from chainerlite.functions.rnn import n_step_rnn

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import _n_step_cases as cases  # noqa: E402

sys.path.remove(str(HERE))


@pytest.fixture(scope='module')
def recorded():
    with numpy.load(pathlib.Path(cases.DATA) / 'n_step_chainer.npz') as data:
        return dict(data)


class _ChainerMasks(object):
    # F.dropout drawing its mask from NumPy's global generator as Chainer
    # 7.8.1 does (chainerlite draws differently, see docs/differences.rst),
    # so that the masks of a seeded call are Chainer's.
    @staticmethod
    def dropout(x, ratio):
        if not chainerlite.config.train:
            return chainerlite.as_variable(x)
        keep = numpy.random.rand(*x.shape) >= ratio
        return F.dropout(x, ratio, mask=keep * (1.0 / (1 - ratio)))


@pytest.mark.parametrize('name', sorted(cases.CASES))
def test_matches_recorded_chainer(name, recorded, monkeypatch):
    # The dropout cases check which inputs get a mask and in which order the
    # masks are drawn: one per direction of each layer above the first.
    monkeypatch.setattr(n_step_rnn, 'dropout', _ChainerMasks)
    a = {k: chainerlite.Variable(v) for k, v in cases.inputs(name).items()}
    with chainerlite.using_config('train', True):
        outs = cases.call(chainerlite, name, a)
    rand = numpy.random.RandomState(100)
    loss = sum(F.sum(y * rand.uniform(-1, 1, y.shape)) for y in outs)
    loss.backward()
    n_out = sum(1 for k in recorded if k.startswith(name + '/out'))
    assert len(outs) == n_out
    for i, y in enumerate(outs):
        numpy.testing.assert_allclose(
            y.array, recorded['%s/out%d' % (name, i)], rtol=1e-12, atol=1e-12
        )
    for k, v in a.items():
        numpy.testing.assert_allclose(
            v.grad, recorded['%s/grad_%s' % (name, k)], rtol=1e-11, atol=1e-12
        )


# cell, its number of weights (and of biases) per layer and direction
_CELLS = {
    'lstm': (n_step_lstm._LSTMCell(), 8),
    'gru': (n_step_gru._GRUCell(), 6),
    'tanh': (n_step_rnn._RNNCell('tanh'), 2),
    'relu': (n_step_rnn._RNNCell('relu'), 2),
}


def _layer(kind, batches, rows, dtype, units=3, in_size=4, seed=0):
    # Inputs of one layer and direction: xw, the states, w and b.
    cell, n_w = _CELLS[kind]
    rand = numpy.random.RandomState(seed).uniform
    ws = [
        rand(-1, 1, (units, in_size if j < n_w // 2 else units)).astype(dtype)
        for j in range(n_w)
    ]
    bs = [rand(-1, 1, units).astype(dtype) for _ in range(n_w)]
    x = rand(-1, 1, (sum(batches), in_size)).astype(dtype)
    w_x, b_x, w, b = cell.prepare(ws, bs)
    xw = F.linear(x, w_x, b_x).array
    states = [rand(-1, 1, (rows, units)).astype(dtype) for _ in range(cell.n_states)]
    params = [
        p.array for p in map(chainerlite.as_variable, [w] + ([] if b is None else [b]))
    ]
    return cell, [xw] + states + params


@pytest.mark.parametrize('kind', sorted(_CELLS))
@pytest.mark.parametrize('reverse', [False, True])
@pytest.mark.parametrize(
    'batches, rows',
    [([3, 3, 2, 1], 3), ([2], 2), ([2, 2, 1], 4)],  # rows > batches[0]: kept
)
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_node_matches_graph_of_steps(kind, reverse, batches, rows, dtype):
    # (float16 takes the LSTM's NumPy path, which saves no activations)
    cell, arrays = _layer(kind, batches, rows, dtype)
    n = cell.n_states
    tol = {
        numpy.float16: {'rtol': 1e-2, 'atol': 1e-2},
        numpy.float32: {'rtol': 1e-5, 'atol': 1e-6},
        numpy.float64: {},
    }[dtype]

    def run(fused):
        vs = [chainerlite.Variable(a.copy()) for a in arrays]
        if fused:
            outs = _recurrence.Recurrence(cell, batches, reverse).apply(vs)
        else:
            params = (vs[1 + n], vs[2 + n] if len(vs) > 2 + n else None)
            ys, finals = _recurrence.run_graph(
                cell, tuple(vs[1 : 1 + n]), params, vs[0], batches, reverse
            )
            outs = (ys,) + tuple(finals)
        rand = numpy.random.RandomState(1)
        loss = sum(F.sum(y * rand.uniform(-1, 1, y.shape).astype(dtype)) for y in outs)
        loss.backward()
        return [y.array for y in outs] + [v.grad for v in vs]

    for got, expected in zip(run(True), run(False)):
        assert got.dtype == dtype
        numpy.testing.assert_allclose(got, expected, **tol)


@pytest.mark.parametrize('kind', sorted(_CELLS))
@pytest.mark.parametrize('batches', [[3, 3], [3, 3, 2]])
def test_outputs_share_no_memory(kind, batches):
    # the steps write their rows into blocks the node keeps for the
    # gradient; the final states it returns are apart from those and from
    # each other
    cell, arrays = _layer(kind, batches, 3, numpy.float32)
    outs = _recurrence.Recurrence(cell, batches, False).apply(arrays)
    for i, a in enumerate(outs):
        for b in outs[i + 1 :]:
            assert not numpy.shares_memory(a.array, b.array)


_NO_AVX512 = pytest.mark.skipif(
    packed_gemm.pack(numpy.ones((1, 1), numpy.float32), False) is None,
    reason='packed_gemm and lstm_layer need a CPU with AVX-512F',
)


@_NO_AVX512
@pytest.mark.parametrize('kind', sorted(set(_CELLS) - {'lstm'}))
def test_float32_steps_run_the_packed_products(kind, monkeypatch):
    # every step's recurrent product, forward and backward, is packed_gemm's
    # (the float32 case of test_node_matches_graph_of_steps checks values)
    calls = []
    matmul = packed_gemm.matmul

    def counted(*args):
        out = matmul(*args)
        calls.append(out is not None)
        return out

    monkeypatch.setattr(packed_gemm, 'matmul', counted)
    batches = [3, 3, 2, 1]
    cell, arrays = _layer(kind, batches, 3, numpy.float32, units=40, in_size=5)
    vs = [chainerlite.Variable(a) for a in arrays]
    outs = _recurrence.Recurrence(cell, batches, False).apply(vs)
    F.sum(outs[0]).backward()
    assert calls == [True] * (2 * len(batches))


def _lstm_run(arrays, batches, reverse):
    # outputs and input gradients of the LSTM's Recurrence node
    cell = n_step_lstm._LSTMCell()
    vs = [chainerlite.Variable(a.copy()) for a in arrays]
    outs = _recurrence.Recurrence(cell, batches, reverse).apply(vs)
    rand = numpy.random.RandomState(1)
    loss = sum(F.sum(y * rand.uniform(-1, 1, y.shape).astype(y.dtype)) for y in outs)
    loss.backward()
    return [y.array for y in outs] + [v.grad for v in vs]


@_NO_AVX512
@pytest.mark.parametrize('reverse', [False, True])
@pytest.mark.parametrize('batches, rows', [([3, 3, 2, 1], 3), ([2, 2, 1], 4)])
def test_float32_lstm_runs_the_compiled_layer(batches, rows, reverse, monkeypatch):
    # a float32 LSTM layer is one lstm_layer call each way, with the bits of
    # its steps run one by one (the layer turned off)
    from chainerlite.functions.rnn import _lstm_layer

    _, arrays = _layer('lstm', batches, rows, numpy.float32, units=40, in_size=5)
    calls = []
    for name in ('forward', 'backward'):
        kernel = getattr(_lstm_layer.lstm_layer, name)
        monkeypatch.setattr(
            _lstm_layer.lstm_layer,
            name,
            lambda *a, _k=kernel, _n=name: calls.append(_n) or _k(*a),
        )
    fused = _lstm_run(arrays, batches, reverse)
    assert calls == ['forward', 'backward']
    monkeypatch.setattr(n_step_lstm._LSTMCell, 'layer', None)
    steps = _lstm_run(arrays, batches, reverse)
    assert len(calls) == 2
    for got, expected in zip(fused, steps):
        numpy.testing.assert_array_equal(got, expected)


@_NO_AVX512
def test_lstm_layer_backward_that_declines_runs_the_steps(monkeypatch):
    # the forward ran the layer, its backward declines: the steps run again
    # one by one and give the same gradients
    from chainerlite.functions.rnn import _lstm_layer

    batches = [3, 3, 2, 1]
    _, arrays = _layer('lstm', batches, 3, numpy.float32, units=40, in_size=5)
    expected = _lstm_run(arrays, batches, False)
    monkeypatch.setattr(_lstm_layer.lstm_layer, 'backward', lambda *a: None)
    for got, want in zip(_lstm_run(arrays, batches, False), expected):
        numpy.testing.assert_array_equal(got, want)


def _flat_call(name):
    # The function of case `name` on a flat tuple of arrays (the order of
    # cases.inputs), returning all outputs as a flat tuple.
    keys = sorted(cases.inputs(name))

    def f(*args):
        outs = cases.call(chainerlite, name, dict(zip(keys, args)))
        return tuple(outs)

    return keys, f


@pytest.mark.parametrize('name', sorted(n for n in cases.CASES if 'dropout' not in n))
def test_check_backward_and_double_backward(name):
    keys, f = _flat_call(name)
    a = cases.inputs(name)
    inputs = tuple(a[k] for k in keys)
    ys = f(*[chainerlite.Variable(x) for x in inputs])
    rand = numpy.random.RandomState(3)
    gys = tuple(rand.uniform(-1, 1, y.shape) for y in ys)
    ggxs = tuple(rand.uniform(-1, 1, x.shape) for x in inputs)
    gradient_check.check_backward(f, inputs, gys, atol=1e-6, rtol=1e-5)
    gradient_check.check_double_backward(f, inputs, gys, ggxs, atol=1e-5, rtol=1e-4)


def test_second_backward_through_the_same_graph_runs_the_steps_again():
    # The first backward takes what the forward saved; a second one through
    # the same graph (retained) must give the same gradients without it.
    name = 'bilstm'
    a = {k: chainerlite.Variable(v) for k, v in cases.inputs(name).items()}
    outs = cases.call(chainerlite, name, a)
    loss = sum(F.sum(y * y) for y in outs)
    first = chainerlite.grad([loss], list(a.values()))
    second = chainerlite.grad([loss], list(a.values()))
    for g1, g2 in zip(first, second):
        numpy.testing.assert_array_equal(g1.array, g2.array)


@pytest.mark.parametrize('train', [False, True])
def test_dropout_only_in_training(train):
    name = 'bigru_dropout'
    a = cases.inputs(name)
    with chainerlite.using_config('train', train):
        first = cases.call(chainerlite, name, a, seed=7)
        second = cases.call(chainerlite, name, a, seed=8)
    same = all(numpy.array_equal(y.array, z.array) for y, z in zip(first, second))
    assert same != train


@pytest.mark.parametrize('name', ['bilstm', 'gru', 'rnn_tanh'])
def test_without_backprop_the_same_outputs(name):
    # Without backprop nothing is kept for a gradient; the values are those
    # of a call that keeps it.
    a = cases.inputs(name)
    kept = cases.call(chainerlite, name, a)
    with chainerlite.no_backprop_mode():
        plain = cases.call(chainerlite, name, a)
    assert all(y.creator is None for y in plain)
    for y, z in zip(kept, plain):
        numpy.testing.assert_array_equal(y.array, z.array)


@_NO_AVX512
@pytest.mark.parametrize('bidirectional', [False, True])
def test_float32_lstm_layer_check_backward(bidirectional):
    # the compiled layer's gradients (float32) against numerical ones taken
    # in float64 (where the steps run one by one), first and second order
    rand = numpy.random.RandomState(4)
    units, in_size, batches, dirs = 20, 3, [3, 2, 2, 1], 2 if bidirectional else 1

    def arr(*shape):
        return rand.uniform(-1, 1, shape).astype(numpy.float32)

    xs = [arr(b, in_size) for b in batches]
    h, c = arr(dirs, 3, units), arr(dirs, 3, units)
    shapes = [(units, in_size if k < 4 else units) for k in range(8)]
    ws = [arr(*shape) for _ in range(dirs) for shape in shapes]
    bs = [arr(units) for _ in range(dirs * 8)]
    run = F.n_step_bilstm if bidirectional else F.n_step_lstm

    def f(h, c, *rest):
        xs, ws, bs = rest[:4], rest[4 : 4 + 8 * dirs], rest[4 + 8 * dirs :]
        ws = [list(ws[8 * d : 8 * d + 8]) for d in range(dirs)]
        bs = [list(bs[8 * d : 8 * d + 8]) for d in range(dirs)]
        hy, cy, ys = run(1, 0.0, h, c, ws, bs, list(xs))
        return (hy, cy) + tuple(ys)

    inputs = (h, c) + tuple(xs) + tuple(ws) + tuple(bs)
    outs = f(*inputs)
    gys = tuple(arr(*y.shape) for y in outs)
    ggxs = tuple(arr(*x.shape) for x in inputs)
    gradient_check.check_backward(
        f, inputs, gys, dtype=numpy.float64, atol=1e-4, rtol=1e-3
    )
    gradient_check.check_double_backward(
        f, inputs, gys, ggxs, dtype=numpy.float64, atol=1e-3, rtol=1e-2
    )
