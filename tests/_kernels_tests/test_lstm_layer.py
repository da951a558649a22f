"""The whole-layer LSTM kernels (``lstm_layer``): the bits of the steps run
one by one (packed_gemm.matmul, then lstm's cell kernels), in either
direction and with batches that shrink; the same bits with one and two
OpenMP threads; declines and errors on arrays they do not take."""

import numpy as np
import pytest

from chainerlite._kernels import lstm
from chainerlite._kernels import lstm_layer
from chainerlite._kernels import packed_gemm

pytestmark = pytest.mark.skipif(
    packed_gemm.pack(np.ones((1, 1), np.float32), False) is None,
    reason='lstm_layer needs a CPU with AVX-512F',
)


def _layer(n, batches, reverse, seed=0):
    # the arrays of one layer: xw, hx, cx, w, gys, the gradients of the
    # final states, and the steps (rows, first row) in the order they run
    rng = np.random.default_rng(seed)
    total, rows = sum(batches), batches[0]
    starts = list(np.cumsum([0] + batches[:-1]))
    order = list(range(len(batches)))[::-1] if reverse else range(len(batches))
    f = np.float32
    return dict(
        xw=rng.standard_normal((total, 4 * n)).astype(f),
        hx=rng.standard_normal((rows, n)).astype(f),
        cx=rng.standard_normal((rows, n)).astype(f),
        w=(rng.standard_normal((4 * n, n)) / np.sqrt(n)).astype(f),
        gys=rng.standard_normal((total, n)).astype(f),
        gh=rng.standard_normal((rows, n)).astype(f),
        gc=rng.standard_normal((rows, n)).astype(f),
        batches=[batches[t] for t in order],
        starts=[int(starts[t]) for t in order],
    )


def _fused(a):
    n, total = a['hx'].shape[1], len(a['xw'])
    ys, cs = np.empty((total, n), np.float32), np.empty((total, n), np.float32)
    act = np.empty((total, 5 * n), np.float32)
    assert lstm_layer.forward(
        a['xw'], a['hx'], a['cx'], a['w'], a['batches'], a['starts'], ys, cs, act
    )
    gh, gc = a['gh'].copy(), a['gc'].copy()
    gx = np.empty_like(a['xw'])
    assert lstm_layer.backward(
        a['w'], a['cx'], cs, act, a['gys'], gh, gc, gx, a['batches'], a['starts']
    )
    return dict(ys=ys, cs=cs, act=act, gh=gh, gc=gc, gx=gx)


def _one_by_one(a):
    # The same steps with the one-step kernels: row i of a step starts from
    # row i of the step before where that one has it, else from hx, cx.
    n, total = a['hx'].shape[1], len(a['xw'])
    ys, cs = np.empty((total, n), np.float32), np.empty((total, n), np.float32)
    act = np.empty((total, 5 * n), np.float32)
    forward_w = packed_gemm.pack(a['w'], True)
    backward_w = packed_gemm.pack(a['w'], False)
    steps = list(zip(a['batches'], a['starts']))

    def before(s, steps_rows, init):
        m = steps[s][0]
        if s == 0:
            return init[:m].copy()
        pm, plo = steps[s - 1]
        k = min(m, pm)
        return np.concatenate((steps_rows[plo : plo + k], init[k:m]))

    for s, (m, lo) in enumerate(steps):
        h, c = before(s, ys, a['hx']), before(s, cs, a['cx'])
        pre = packed_gemm.matmul(h, forward_w, None, a['xw'][lo : lo + m])
        lstm.lstm_forward(
            c.reshape(m, 1, n),
            pre.reshape(m, 4, n),
            cs[lo : lo + m].reshape(m, 1, n),
            ys[lo : lo + m].reshape(m, 1, n),
            True,
            act[lo : lo + m].reshape(m, 1, 5, n),
        )
    gh, gc = a['gh'].copy(), a['gc'].copy()
    gx = np.empty_like(a['xw'])
    for s in reversed(range(len(steps))):
        m, lo = steps[s]
        c = before(s, cs, a['cx'])
        gh[:m] += a['gys'][lo : lo + m]
        gc_prev = np.empty((m, 1, n), np.float32)
        lstm.lstm_backward(
            c.reshape(m, 1, n),
            a['xw'][lo : lo + m].reshape(m, 4, n),
            None,
            gc[:m].reshape(m, 1, n),
            gh[:m].reshape(m, 1, n),
            gc_prev,
            gx[lo : lo + m].reshape(m, 4, n),
            act[lo : lo + m].reshape(m, 1, 5, n),
        )
        gc[:m] = gc_prev.reshape(m, n)
        gh[:m] = packed_gemm.matmul(gx[lo : lo + m], backward_w)
    return dict(ys=ys, cs=cs, act=act, gh=gh, gc=gc, gx=gx)


@pytest.mark.parametrize('reverse', [False, True])
@pytest.mark.parametrize(
    'n, batches',
    [(40, [6, 4, 4, 1]), (33, [3]), (70, [9, 9, 7, 2, 2, 1]), (16, [1, 1])],
)
def test_the_bits_of_the_steps_one_by_one(n, batches, reverse):
    a = _layer(n, batches, reverse)
    fused, steps = _fused(a), _one_by_one(a)
    for name in steps:
        np.testing.assert_array_equal(fused[name], steps[name], err_msg=name)


def test_without_activations_the_outputs_are_the_same():
    a = _layer(40, [5, 3], False)
    ys, cs = np.empty((8, 40), np.float32), np.empty((8, 40), np.float32)
    assert lstm_layer.forward(
        a['xw'], a['hx'], a['cx'], a['w'], a['batches'], a['starts'], ys, cs
    )
    fused = _fused(a)
    np.testing.assert_array_equal(ys, fused['ys'])
    np.testing.assert_array_equal(cs, fused['cs'])


# 650 units and batch 48 (the LSTM LM's units): each step is shared
THREADS = r'''
import sys
import numpy as np
sys.path.insert(0, sys.argv[2])
from test_lstm_layer import _fused, _layer
np.savez(sys.argv[1], **_fused(_layer(650, [48, 48, 40, 33, 10, 3], %s)))
'''


@pytest.mark.parametrize('reverse', [False, True])
def test_two_threads_give_the_bits_of_one(thread_results, reverse):
    import pathlib
    import textwrap

    program = textwrap.dedent(THREADS % reverse).replace(
        'sys.argv[2]', repr(str(pathlib.Path(__file__).parent))
    )
    one, two = thread_results(program, 1), thread_results(program, 2)
    for name in one:
        np.testing.assert_array_equal(one[name], two[name], err_msg=name)


def _arrays(n=8, total=5, rows=3):
    f = np.float32
    return dict(
        xw=np.zeros((total, 4 * n), f),
        hx=np.zeros((rows, n), f),
        cx=np.zeros((rows, n), f),
        w=np.zeros((4 * n, n), f),
        ys=np.zeros((total, n), f),
        cs=np.zeros((total, n), f),
    )


def _forward(a, batches=(3, 2), starts=(0, 3), act=None):
    return lstm_layer.forward(
        a['xw'], a['hx'], a['cx'], a['w'], batches, starts, a['ys'], a['cs'], act
    )


@pytest.mark.parametrize(
    'name, spoil',
    [
        ('xw', lambda x: x.astype(np.float64)),
        ('w', lambda x: np.asfortranarray(x)),
        ('hx', lambda x: x[:, :-1]),
        ('ys', lambda x: x[:-1]),
        ('cs', lambda x: np.broadcast_to(x[:1], x.shape)),
        ('cx', lambda x: list(x)),
    ],
)
def test_declines_arrays_it_does_not_take(name, spoil):
    a = _arrays()
    a[name] = spoil(a[name])
    before = a['ys'].copy() if name != 'ys' else None
    assert _forward(a) is None
    if before is not None:
        np.testing.assert_array_equal(a['ys'], before)


def test_backward_declines_without_activations():
    a = _arrays()
    g = np.zeros((3, 8), np.float32)
    args = (a['w'], a['cx'], a['cs'], None, a['ys'], g, g.copy(), a['xw'])
    assert lstm_layer.backward(*args, (3, 2), (0, 3)) is None


@pytest.mark.parametrize(
    'batches, starts',
    [((3, 2), (0, 4)), ((4, 1), (0, 3)), ((0, 2), (0, 3)), ((), ()), ((3,), (0, 3))],
)
def test_steps_outside_the_arrays_raise(batches, starts):
    with pytest.raises(ValueError, match='lstm_layer'):
        _forward(_arrays(), batches, starts)


def test_outputs_that_overlap_raise():
    a = _arrays()
    a['cs'] = a['ys']
    with pytest.raises(ValueError, match='lstm_layer.forward: an output overlaps'):
        _forward(a)
    a = _arrays()
    block = np.zeros(5 * 8 + 5 * 40, np.float32)
    a['ys'] = block[:40].reshape(5, 8)
    with pytest.raises(ValueError, match='lstm_layer.forward: an output overlaps'):
        _forward(a, act=block[20:220].reshape(5, 40))
    a = _arrays()
    a['ys'] = a['xw'][:, :8]
    assert _forward(a) is None  # not contiguous: declined before the check
