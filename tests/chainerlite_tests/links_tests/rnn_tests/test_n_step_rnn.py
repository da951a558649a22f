"""The n-step links (RNN, LSTM, GRU, uni- and bidirectional): they sort
sequences of any lengths, run the n-step function and restore the order."""

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
import chainerlite.links as L
from chainerlite import gradient_check
from chainerlite import initializers
from chainerlite.functions.rnn import _views
from chainerlite.links.rnn.n_step_rnn import NStepRNNBase

# class: (number of weights per layer and direction, states, directions)
LINKS = {
    L.NStepRNNTanh: (2, 1, 1),
    L.NStepRNNReLU: (2, 1, 1),
    L.NStepBiRNNTanh: (2, 1, 2),
    L.NStepBiRNNReLU: (2, 1, 2),
    L.NStepLSTM: (8, 2, 1),
    L.NStepBiLSTM: (8, 2, 2),
    L.NStepGRU: (6, 1, 1),
    L.NStepBiGRU: (6, 1, 2),
}


def _run_one_by_one(link, states, xs):
    # Each sequence alone (a batch of one): the reference for the batch.
    hys, ys = [], []
    for i, x in enumerate(xs):
        out = link(*[None if s is None else s[:, i : i + 1] for s in states], [x])
        hys.append(out[:-1])
        ys.append(out[-1][0].array)
    return [
        numpy.concatenate([h[k].array for h in hys], axis=1) for k in range(len(states))
    ], ys


@pytest.mark.parametrize('cls', sorted(LINKS, key=lambda c: c.__name__))
def test_forward_sorts_and_restores_the_order(cls):
    n_weights, n_states, n_dirs = LINKS[cls]
    link = cls(2, 3, 2, 0.0)
    assert len(link) == 2 * n_dirs and link.n_cells == n_states
    assert [len(w) for w in link.ws] == [n_weights] * (2 * n_dirs)
    assert link.ws[n_dirs - 1][0].shape == (2, 3) and link.ws[-1][0].shape == (
        2,
        2 * n_dirs,
    )
    lengths = [2, 4, 1]
    xs = [numpy.random.uniform(-1, 1, (n, 3)).astype(numpy.float32) for n in lengths]
    states = [
        numpy.random.uniform(-1, 1, (2 * n_dirs, 3, 2)).astype(numpy.float32)
        for _ in range(n_states)
    ]
    out = link(*states, xs)
    expected_states, expected_ys = _run_one_by_one(link, states, xs)
    for got, expected in zip(out[:-1], expected_states):
        numpy.testing.assert_allclose(got.array, expected, rtol=1e-5, atol=1e-6)
    for y, expected, n in zip(out[-1], expected_ys, lengths):
        assert y.shape == (n, 2 * n_dirs)
        numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)
    zero = link(*[None] * n_states, xs)
    with_zeros = link(*[numpy.zeros_like(s) for s in states], xs)
    numpy.testing.assert_array_equal(zero[0].array, with_zeros[0].array)


def test_lstm_link_is_the_function_with_its_parameters():
    link = L.NStepLSTM(1, 3, 2, 0.0)
    xs = [numpy.random.uniform(-1, 1, (n, 3)).astype(numpy.float32) for n in (3, 2)]
    hx = numpy.random.uniform(-1, 1, (1, 2, 2)).astype(numpy.float32)
    hy, cy, ys = link(hx, hx, xs)
    hy2, cy2, ys2 = F.n_step_lstm(
        1, 0.0, hx, hx, link.ws, link.bs, F.transpose_sequence(xs)
    )
    numpy.testing.assert_allclose(hy.array, hy2.array, rtol=1e-6)
    for y, y2 in zip(ys, F.transpose_sequence(ys2)):
        numpy.testing.assert_allclose(y.array, y2.array, rtol=1e-6)


@pytest.mark.parametrize('lengths', [(3, 0, 5, 5, 1), (4, 4, 4), (0, 2), (1, 1)])
@pytest.mark.parametrize('cls', [L.NStepLSTM, L.NStepBiLSTM])
def test_lstm_link_joins_the_sequences_as_the_function_reads_them(cls, lengths):
    # The link takes its sequences time-major in one gather (no per-step
    # transposes): its outputs and gradients are the function's on the
    # sorted, transposed sequences.
    n_dirs = LINKS[cls][2]
    link = cls(2, 3, 2, 0.0)
    data = [numpy.random.uniform(-1, 1, (n, 3)).astype(numpy.float32) for n in lengths]
    hx = numpy.random.uniform(-1, 1, (2 * n_dirs, len(lengths), 2)).astype(
        numpy.float32
    )
    results = []
    for joined in (True, False):
        link.cleargrads()
        xs = [chainerlite.Variable(x.copy()) for x in data]
        h = chainerlite.Variable(hx.copy())
        if joined:
            hy, cy, ys = link(h, h, xs)
        else:
            order = numpy.argsort([-n for n in lengths], kind='stable')
            func = F.n_step_bilstm if n_dirs == 2 else F.n_step_lstm
            nonempty = [xs[i] for i in order if lengths[i]]
            h_sorted = F.permutate(h, order.astype(numpy.int32), axis=1)
            hy, cy, ys_t = func(
                2,
                0.0,
                h_sorted,
                h_sorted,
                link.ws,
                link.bs,
                F.transpose_sequence(nonempty),
            )
            inverse = order.argsort().astype(numpy.int32)
            hy, cy = (F.permutate(s, inverse, axis=1) for s in (hy, cy))
            ys = dict(zip(order[: len(nonempty)], F.transpose_sequence(ys_t)))
            ys = [ys.get(i) for i in range(len(xs))]
        loss = F.sum(hy * hy) + F.sum(cy)
        for y in ys:
            if y is not None and len(y):
                loss += F.sum(y * y * y)
        loss.backward()
        results.append(
            [hy.array, cy.array, h.grad]
            + [x.grad if x.grad is not None else numpy.zeros_like(x.array) for x in xs]
            + [p.grad for p in link.params()]
        )
        if joined:
            assert [y.shape for y in ys] == [(n, 2 * n_dirs) for n in lengths]
            results[-1] += [y.array for y in ys if len(y)]
        else:
            results[-1] += [y.array for y in ys if y is not None]
    for got, expected in zip(*results):
        numpy.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('cls', [L.NStepBiGRU, L.NStepLSTM])
def test_backward(cls):
    with chainerlite.using_config('dtype', numpy.float64):
        link = cls(1, 2, 2, 0.0)
    n_states = LINKS[cls][1]
    n_dirs = LINKS[cls][2]
    xs = [numpy.random.uniform(-1, 1, (n, 2)) for n in (1, 3)]
    states = [numpy.random.uniform(-1, 1, (n_dirs, 2, 2)) for _ in range(n_states)]

    def f(*args):
        out = link(*args[:n_states], list(args[n_states:]))
        return tuple(out[:-1]) + tuple(out[-1])

    gys = [numpy.random.uniform(-1, 1, s.shape) for s in states] + [
        numpy.random.uniform(-1, 1, (len(x), 2 * n_dirs)) for x in xs
    ]
    gradient_check.check_backward(
        f, tuple(states + xs), tuple(gys), params=tuple(link.params())
    )


def test_initializers_and_dtype():
    with chainerlite.using_config('dtype', numpy.float64):
        link = L.NStepRNNTanh(
            2,
            3,
            4,
            0.5,
            initialW=initializers.One(),
            initial_bias=initializers.Constant(2),
        )
    assert link.dropout == 0.5 and link.out_size == 4
    for w in sum(link.ws, []):
        assert w.dtype == numpy.float64 and (w.array == 1).all()
    for b in sum(link.bs, []):
        assert b.shape == (4,) and (b.array == 2).all()


def test_bad_calls():
    link = L.NStepGRU(1, 3, 2, 0.0)
    with pytest.raises(TypeError, match='NStepGRU: xs must be a list'):
        link(None, numpy.zeros((2, 3), numpy.float32))
    with pytest.raises(ValueError, match='using_config'):
        link(None, [numpy.zeros((2, 3), numpy.float32)], train=True)


def _lstm_against_copies(link, xs):
    # The link's outputs and parameter gradients, and the function's on
    # copies of the parameters (separate arrays, joined by concatenation).
    link.cleargrads()
    hy, cy, ys = link(None, None, xs)
    F.sum(hy * cy + 1).backward()
    got = [hy.array, cy.array] + [p.grad for p in link.params()]
    ws = [[chainerlite.Variable(w.array.copy()) for w in l] for l in link.ws]
    bs = [[chainerlite.Variable(b.array.copy()) for b in l] for l in link.bs]
    order = numpy.argsort([-len(x) for x in xs], kind='stable')
    hx = numpy.zeros((len(ws), len(xs), hy.shape[2]), numpy.float32)
    hy2, cy2, _ = F.n_step_lstm(
        len(ws), 0.0, hx, hx, ws, bs, F.transpose_sequence([xs[i] for i in order])
    )
    inverse = order.argsort().astype(numpy.int32)
    hy2, cy2 = (F.permutate(s, inverse, axis=1) for s in (hy2, cy2))
    F.sum(hy2 * cy2 + 1).backward()
    grads = {
        id(p): q.grad
        for l, m in ((link.ws, ws), (link.bs, bs))
        for ps, qs in zip(l, m)
        for p, q in zip(ps, qs)
    }
    expected = [hy2.array, cy2.array] + [grads[id(p)] for p in link.params()]
    for a, b in zip(got, expected):
        numpy.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_lstm_link_gate_weights_share_one_array_through_updates():
    # The four gates' weights (and biases) are views of one array, which the
    # call uses without joining them; an in-place update keeps that, and a
    # parameter given a new array is joined by a copy again.
    from chainerlite import optimizers

    link = L.NStepLSTM(2, 3, 4, 0.0)
    xs = [numpy.random.uniform(-1, 1, (n, 3)).astype(numpy.float32) for n in (2, 5)]
    w0 = link.ws[0][0].array
    assert w0.base is not None and all(w.array.base is w0.base for w in link.ws[0][:4])
    assert link.ws[0][2].array.base[0:4].__array_interface__ == (
        link.ws[0][2].array.__array_interface__
    )  # the cell's order: a, i, f, o
    _lstm_against_copies(link, xs)
    optimizer = optimizers.SGD(lr=0.5)
    optimizer.setup(link)
    for _ in range(2):
        link.cleargrads()
        F.sum(link(None, None, xs)[0]).backward()
        optimizer.update()
    assert link.ws[0][0].array is w0
    _lstm_against_copies(link, xs)
    recurrent = [link.ws[1][j] for j in (6, 4, 5, 7)]
    assert _views.joined(recurrent) is not None
    link.ws[1][5].array = link.ws[1][5].array.copy()
    assert _views.joined(recurrent) is None
    _lstm_against_copies(link, xs)


def test_a_subclass_that_implements_rnn_only_is_called_on_sorted_steps():
    # Chainer's contract for subclasses: rnn gets the arguments of the
    # n-step function (n_layers and the dropout ratio first), the sequences
    # sorted and transposed; the link restores the order of its outputs.
    class Doubling(NStepRNNBase):
        n_weights = 2

        def rnn(self, n_layers, dropout, hx, ws, bs, xs):
            assert (n_layers, dropout) == (1, 0.0)
            assert ws[0][0] is self[0].w0 and bs[0][1] is self[0].b1
            assert [len(x) for x in xs] == [3, 2, 1]
            return hx * 2, [x * 2 for x in xs]

    link = Doubling(1, 3, 3, 0.0)
    xs = [numpy.random.uniform(-1, 1, (n, 3)).astype(numpy.float32) for n in (1, 3, 2)]
    hy, ys = link(None, xs)
    assert hy.shape == (1, 3, 3)
    for y, x in zip(ys, xs):
        numpy.testing.assert_array_equal(y.array, x * 2)


@pytest.mark.parametrize('cls', [L.NStepLSTM, L.NStepBiGRU, L.NStepRNNReLU])
@pytest.mark.parametrize('removed', ['use_cudnn', 'use_bi_direction', 'activation'])
def test_removed_constructor_arguments_raise_value_error(cls, removed):
    with pytest.raises(ValueError, match='not supported anymore'):
        cls(1, 2, 3, 0.0, **{removed: True})


def test_initializers_are_keyword_only_and_unknown_keywords_type_errors():
    with pytest.raises(TypeError):
        L.NStepGRU(1, 2, 3, 0.0, initializers.One())
    with pytest.raises(TypeError, match='no_such'):
        L.NStepGRU(1, 2, 3, 0.0, no_such=1)
    link = L.NStepGRU(1, 2, 3, 0.0, initialW=initializers.One(), initial_bias=2)
    assert (link.ws[0][0].array == 1).all() and (link.bs[0][5].array == 2).all()


@pytest.mark.parametrize('cls', sorted(LINKS, key=lambda c: c.__name__))
def test_sequences_not_in_a_list_or_tuple(cls):
    link = cls(1, 3, 2, 0.0)
    xs = numpy.ones((2, 4, 3), numpy.float32)
    states = [None] * LINKS[cls][1]
    for error in (TypeError, AssertionError):
        with pytest.raises(error, match='xs must be a list'):
            link(*states, xs)


@pytest.mark.parametrize('rows', [1, 3])
def test_initial_state_of_other_rows_than_sequences_is_refused(rows):
    # two sequences: Chainer 7.8.1 fails on one row (IndexError) and uses
    # the first two of three (docs/differences.rst); chainerlite refuses both
    link = L.NStepLSTM(1, 2, 3, 0.0)
    hx = numpy.zeros((1, rows, 3), numpy.float32)
    xs = [numpy.ones((2, 2), numpy.float32), numpy.ones((1, 2), numpy.float32)]
    with pytest.raises(chainerlite.utils.type_check.InvalidType) as info:
        link(hx, None, xs)
    assert isinstance(info.value, IndexError)
