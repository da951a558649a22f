import numpy
import pytest

import chainerlite
import chainerlite.links as L
from chainerlite import gradient_check


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _cell(blocks, cs):
    # blocks: pre-activations a, i, o, f_1, ..., f_N.
    c = numpy.tanh(blocks[0]) * _sigmoid(blocks[1])
    for f, c_child in zip(blocks[3:], cs):
        c = c + _sigmoid(f) * c_child
    return c, _sigmoid(blocks[2]) * numpy.tanh(c)


def _child_sum_reference(link, cs, hs, x):
    gx = numpy.split(x @ link.W_x.W.array.T + link.W_x.b.array, 4, axis=1)
    h_sum = sum(hs) if hs else numpy.zeros_like(gx[0])
    aio = numpy.split(h_sum @ link.W_h_aio.W.array.T, 3, axis=1)
    fs = [gx[3] + h @ link.W_h_f.W.array.T for h in hs]
    return _cell([g + a for g, a in zip(gx[:3], aio)] + fs, cs)


def _nary_reference(link, cs, hs, x):
    gates = x @ link.W_x.W.array.T + link.W_x.b.array
    for k, h in enumerate(hs, 1):
        gates = gates + h @ getattr(link, 'W_h{}'.format(k)).W.array.T
    return _cell(numpy.split(gates, 3 + len(cs), axis=1), cs)


def _make(kind, n):
    with chainerlite.using_config('dtype', numpy.float64):
        if kind == 'child_sum':
            link = L.ChildSumTreeLSTM(3, 2)
        else:
            link = L.NaryTreeLSTM(3, 2, n_ary=n)
    for p in link.params():
        p.array[...] = numpy.random.uniform(-1, 1, p.shape)
    return link, (_child_sum_reference if kind == 'child_sum' else _nary_reference)


@pytest.mark.parametrize(
    'kind, n', [('child_sum', 0), ('child_sum', 2), ('nary', 1), ('nary', 3)]
)
def test_forward_and_backward(kind, n):
    link, reference = _make(kind, n)
    cs = [numpy.random.uniform(-1, 1, (4, 2)) for _ in range(n)]
    hs = [numpy.random.uniform(-1, 1, (4, 2)) for _ in range(n)]
    x = numpy.random.uniform(-1, 1, (4, 3))
    c, h = link(*(cs + hs + [x]))
    c_ref, h_ref = reference(link, cs, hs, x)
    numpy.testing.assert_allclose(c.array, c_ref, rtol=1e-7)
    numpy.testing.assert_allclose(h.array, h_ref, rtol=1e-7)
    gradient_check.check_backward(
        link,
        tuple(cs + hs + [x]),
        (numpy.random.uniform(-1, 1, (4, 2)), None),
        params=tuple(link.params()),
    )


@pytest.mark.parametrize('kind', ['child_sum', 'nary'])
def test_none_arguments_are_zeros(kind):
    link, reference = _make(kind, 2)
    c = numpy.random.uniform(-1, 1, (4, 2))
    x = numpy.random.uniform(-1, 1, (4, 3))
    zeros = numpy.zeros((4, 2))
    got = link(c, None, None, None, None)
    expected = reference(link, [c, zeros], [zeros, zeros], numpy.zeros_like(x))
    numpy.testing.assert_allclose(got[1].array, expected[1], rtol=1e-7)
    got = link(None, None, None, None, x)
    expected = reference(link, [zeros, zeros], [zeros, zeros], x)
    numpy.testing.assert_allclose(got[0].array, expected[0], rtol=1e-7)


def test_bad_arguments():
    link, _ = _make('nary', 2)
    with pytest.raises(ValueError, match='all the arguments are None'):
        link(None, None, None, None, None)
    with pytest.raises(ValueError, match='NaryTreeLSTM takes'):
        link(None, None, numpy.zeros((4, 3)))
    with pytest.raises(ValueError, match='ChildSumTreeLSTM takes'):
        L.ChildSumTreeLSTM(3, 2)(None, numpy.zeros((4, 3)))
    with pytest.raises(ValueError, match='n_ary'):
        L.NaryTreeLSTM(3, 2, n_ary=0)


def test_nary_counts_are_asserted_as_in_chainer():
    # ValueErrors that are also Chainer 7.8.1's AssertionError
    with pytest.raises(AssertionError, match='n_ary must be at least 1'):
        L.NaryTreeLSTM(4, 1, n_ary=0)
    link = L.NaryTreeLSTM(1, 1)
    with pytest.raises(
        ValueError, match='takes 2 \\* n_ary \\+ 1 = 5 arguments'
    ) as info:
        link(numpy.zeros((1, 1), numpy.float32))
    assert isinstance(info.value, AssertionError)
