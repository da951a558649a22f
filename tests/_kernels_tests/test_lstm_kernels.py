"""The compiled LSTM cell against a NumPy reference of its formula.

The kernels take ``tanh`` from libmvec's vector loops (or the C library)
and the sigmoid as ``tanh(v / 2) / 2 + 1 / 2``, so values agree to a few
units in the last place, not bit for bit.
"""

import os

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite._kernels import lstm as lstm_kernels


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _reference(c_prev, x, gc, gh):
    batch = len(x)
    g = x.reshape((batch, x.shape[1] // 4, 4) + x.shape[2:])
    a, i, f, o = (g[:, :, k] for k in range(4))
    a, i, f, o = np.tanh(a), _sigmoid(i), _sigmoid(f), _sigmoid(o)
    c = a * i + f * c_prev[:batch]
    h = o * np.tanh(c)
    gc_head = gc[:batch] + gh * o * (1 - np.tanh(c) ** 2)
    gx = np.stack(
        [
            gc_head * i * (1 - a * a),
            gc_head * a * i * (1 - i),
            gc_head * c_prev[:batch] * f * (1 - f),
            gh * np.tanh(c) * o * (1 - o),
        ],
        axis=2,
    ).reshape(x.shape)
    gc_prev = np.concatenate([gc_head * f, gc[batch:]])
    return np.concatenate([c, c_prev[batch:]]), h, gc_prev, gx


@pytest.mark.parametrize(
    'dtype,tol', [(np.float16, 1e-2), (np.float32, 1e-6), (np.float64, 1e-14)]
)
@pytest.mark.parametrize('shape', [(3, 5), (3, 2, 2)])
@pytest.mark.parametrize('batch', [3, 2])
def test_forward_and_grad_match_reference(dtype, tol, shape, batch):
    rng = np.random.RandomState(0)
    c_prev = rng.uniform(-1, 1, shape).astype(dtype)
    x = rng.uniform(-3, 3, (batch, 4 * shape[1]) + shape[2:]).astype(dtype)
    # saturated gates
    x[0, :4] = np.array([40, -40, 0, -0.0]).reshape((4,) + (1,) * (x.ndim - 2))
    x = x[::-1]  # a strided view
    gc = rng.uniform(-1, 1, shape).astype(dtype)
    gh = rng.uniform(-1, 1, (batch,) + shape[1:]).astype(dtype)
    wide = [a.astype(np.float64) for a in (c_prev, x, gc, gh)]
    c_ex, h_ex, gc_ex, gx_ex = _reference(*wide)

    cv, xv = chainerlite.Variable(c_prev), chainerlite.Variable(x)
    c, h = F.lstm(cv, xv)
    assert c.dtype == h.dtype == dtype
    np.testing.assert_allclose(c.array, c_ex, rtol=tol, atol=tol)
    np.testing.assert_allclose(h.array, h_ex, rtol=tol, atol=tol)
    c.grad, h.grad = gc, gh
    chainerlite.backward([c, h])
    np.testing.assert_allclose(cv.grad, gc_ex, rtol=tol * 10, atol=tol * 10)
    np.testing.assert_allclose(xv.grad, gx_ex, rtol=tol * 10, atol=tol * 10)


@pytest.mark.parametrize('shape,batch', [((0, 2), 0), ((3, 0), 2), ((2, 2, 0), 1)])
def test_empty(shape, batch):
    c_prev = chainerlite.Variable(np.zeros(shape, np.float32))
    x = chainerlite.Variable(np.zeros((batch, 4 * shape[1]) + shape[2:], np.float32))
    c, h = F.lstm(c_prev, x)
    assert c.shape == shape and h.shape == (batch,) + shape[1:]
    c.grad = np.ones(shape, np.float32)
    c.backward()
    np.testing.assert_array_equal(c_prev.grad[batch:], 1)
    assert x.grad.shape == x.shape


def _saved_case(dtype, shape, batch):
    rng = np.random.RandomState(1)
    c_prev = rng.uniform(-1, 1, shape).astype(dtype)
    x = rng.uniform(-3, 3, (batch, 4 * shape[1]) + shape[2:]).astype(dtype)
    gc = rng.uniform(-1, 1, shape).astype(dtype)
    gh = rng.uniform(-1, 1, (batch,) + shape[1:]).astype(dtype)
    return c_prev, x, gc, gh


@pytest.mark.parametrize('dtype', [np.float32, np.float64])
@pytest.mark.parametrize('shape,batch', [((4, 3), 4), ((4, 3), 2), ((3, 2, 3), 2)])
def test_saved_activations_give_the_recomputed_gradients(dtype, shape, batch):
    # the backward that reads the forward's activations and the one that
    # evaluates them again agree bit for bit
    c_prev, x, gc, gh = _saved_case(dtype, shape, batch)
    c_next, h = np.empty_like(c_prev), np.empty_like(gh)
    act = lstm_kernels.lstm_forward(c_prev, x, c_next, h, True)
    assert act.shape == (batch, shape[1], 5, int(np.prod(shape[2:])))
    grads = []
    for saved in (True, False):
        gc_prev, gx = np.empty_like(c_prev), np.empty_like(x)
        saved_act = act if saved else None
        lstm_kernels.lstm_backward(c_prev, x, c_next, gc, gh, gc_prev, gx, saved_act)
        grads.append((gc_prev, gx))
    for a, b in zip(*grads):
        np.testing.assert_array_equal(a, b)
    c_ex, h_ex, gc_ex, gx_ex = _reference(c_prev, x, gc, gh)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(c_next, c_ex, rtol=tol, atol=tol)
    np.testing.assert_allclose(h, h_ex, rtol=tol, atol=tol)
    np.testing.assert_allclose(grads[0][0], gc_ex, rtol=tol, atol=tol)
    np.testing.assert_allclose(grads[0][1], gx_ex, rtol=tol, atol=tol)


@pytest.mark.parametrize('shape,batch', [((4, 3), 2), ((2, 2, 20), 2)])
def test_activations_go_into_the_given_array(shape, batch):
    # the rows of one block that a caller keeps for many steps take what a
    # new array would; nothing is written where the block is refused
    c_prev, x, _, gh = _saved_case(np.float32, shape, batch)
    c_next, h = np.empty_like(c_prev), np.empty_like(gh)
    new = lstm_kernels.lstm_forward(c_prev, x, c_next, h, True)
    block = np.full((3 * batch,) + new.shape[1:], 7, np.float32)
    rows = block[batch : 2 * batch]
    assert lstm_kernels.lstm_forward(c_prev, x, c_next, h, True, rows) is rows
    np.testing.assert_array_equal(block[batch : 2 * batch], new)
    assert (block[:batch] == 7).all() and (block[2 * batch :] == 7).all()
    with pytest.raises(ValueError, match='act given without save'):
        lstm_kernels.lstm_forward(c_prev, x, c_next, h, False, block[:batch])
    with pytest.raises(ValueError, match='lstm kernels: act has shape'):
        lstm_kernels.lstm_forward(c_prev, x, c_next, h, True, block[: batch + 1])
    with pytest.raises(ValueError, match='act must be C-contiguous'):
        lstm_kernels.lstm_forward(c_prev, x, c_next, h, True, block[::3])
    shared = np.empty(h.size + new.size, np.float32)
    h_shared = shared[: h.size].reshape(h.shape)
    act_shared = shared[h.size // 2 : h.size // 2 + new.size].reshape(new.shape)
    with pytest.raises(ValueError, match='an output overlaps'):
        lstm_kernels.lstm_forward(c_prev, x, c_next, h_shared, True, act_shared)
    assert (block[:batch] == 7).all() and (block[2 * batch :] == 7).all()


def test_forward_keeps_activations_only_for_backprop():
    c_prev, x, _, _ = _saved_case(np.float32, (2, 3), 2)
    c, _ = F.lstm(c_prev, x)
    assert c.creator._act is not None
    with chainerlite.no_backprop_mode():
        assert F.lstm(c_prev, x)[0].creator is None
    c_next, h = np.empty_like(c_prev), np.empty_like(c_prev)
    assert lstm_kernels.lstm_forward(c_prev, x, c_next, h) is None


def test_second_backward_recomputes_the_same_gradients():
    c_prev, x, gc, gh = _saved_case(np.float32, (3, 2), 3)
    cv, xv = chainerlite.Variable(c_prev), chainerlite.Variable(x)
    c, h = F.lstm(cv, xv)
    c.grad, h.grad = gc, gh
    chainerlite.backward([c, h])
    first = cv.grad.copy(), xv.grad.copy()
    assert c.creator._act is None  # used once, then dropped
    # into the existing .grad: accumulated, the same values again
    c.grad, h.grad = gc, gh
    chainerlite.backward([c, h])
    np.testing.assert_array_equal(cv.grad, first[0] * 2)
    np.testing.assert_array_equal(xv.grad, first[1] * 2)


def test_double_backward_through_the_saved_path():
    rng = np.random.RandomState(2)
    c_prev = rng.uniform(-1, 1, (3, 2))
    x = rng.uniform(-1, 1, (2, 8))
    gc, gh = rng.uniform(-1, 1, (3, 2)), rng.uniform(-1, 1, (2, 2))
    ggs = rng.uniform(-1, 1, (3, 2)), rng.uniform(-1, 1, (2, 8))
    chainerlite.gradient_check.check_backward(F.lstm, (c_prev, x), (gc, gh))
    chainerlite.gradient_check.check_double_backward(F.lstm, (c_prev, x), (gc, gh), ggs)


@pytest.mark.parametrize(
    'name,array,error',
    [
        ('c_next', np.empty((3, 2), np.float32)[::-1], ValueError),
        ('c_next', np.empty((3, 3), np.float32), ValueError),
        ('h', np.empty((3, 2), np.float32), ValueError),
        ('h', np.empty((2, 2), np.float64), TypeError),
        ('x', np.empty((4, 8), np.float32), ValueError),
        ('x', np.empty((2, 6), np.float32), ValueError),
        ('c_prev', np.empty(3, np.float32), ValueError),
    ],
)
def test_kernels_reject_arrays_that_do_not_fit(name, array, error):
    args = {
        'c_prev': np.zeros((3, 2), np.float32),
        'x': np.zeros((2, 8), np.float32),
        'c_next': np.empty((3, 2), np.float32),
        'h': np.empty((2, 2), np.float32),
    }
    args[name] = array
    with pytest.raises(error, match='lstm kernels'):
        lstm_kernels.lstm_forward(*args.values())


def test_backward_kernels_reject_arrays_that_do_not_fit():
    c_prev, x, gc, gh = _saved_case(np.float32, (3, 2), 2)
    act = lstm_kernels.lstm_forward(
        c_prev, x, np.empty_like(c_prev), np.empty_like(gh), True
    )
    gc_prev, gx = np.empty_like(c_prev), np.empty_like(x)
    with pytest.raises(ValueError, match='lstm kernels: act'):
        lstm_kernels.lstm_backward(c_prev, x, None, gc, gh, gc_prev, gx, act[:1])
    with pytest.raises(ValueError, match='lstm kernels: gh'):
        lstm_kernels.lstm_backward(c_prev, x, None, gc, gh[:1], gc_prev, gx, act)
    with pytest.raises(ValueError, match='lstm kernels: gx'):
        lstm_kernels.lstm_backward(c_prev, x, c_prev, gc, gh, gc_prev, gx.T.copy().T)
    with pytest.raises(TypeError, match='float32 or float64'):
        half = [a.astype(np.float16) for a in (c_prev, x, c_prev, gc, gh)]
        lstm_kernels.lstm_backward(
            *half, gc_prev.astype(np.float16), gx.astype(np.float16)
        )


@pytest.mark.parametrize('dtype, tol', [(np.float32, 2e-6), (np.float64, 1e-14)])
@pytest.mark.parametrize('units, rest', [(1, 1), (7, 1), (64, 1), (333, 3)])
def test_wide_gates_every_vector_tail(dtype, tol, units, rest):
    # Gate inputs far into both tails of tanh and the sigmoid, rows whose
    # lengths (4 * units * rest gates, units * rest cells) leave every
    # remainder of the vector width, against the formula in long double.
    rng = np.random.default_rng(units * 10 + rest)
    batch = 3
    shape = (batch + 1, units) + ((rest,) if rest > 1 else ())
    c_prev = rng.uniform(-3, 3, shape).astype(dtype)
    x = rng.uniform(-30, 30, (batch, 4 * units) + shape[2:]).astype(dtype)
    gc = rng.uniform(-1, 1, shape).astype(dtype)
    gh = rng.uniform(-1, 1, (batch,) + shape[1:]).astype(dtype)
    c_next, h = np.empty_like(c_prev), np.empty_like(gh)
    act = lstm_kernels.lstm_forward(c_prev, x, c_next, h, True)
    gc_prev, gx = np.empty_like(c_prev), np.empty_like(x)
    lstm_kernels.lstm_backward(c_prev, x, c_next, gc, gh, gc_prev, gx, act)
    wide = [a.astype(np.longdouble) for a in (c_prev, x, gc, gh)]
    for got, ref in zip((c_next, h, gc_prev, gx), _reference(*wide)):
        np.testing.assert_allclose(got, ref.astype(np.float64), rtol=tol * 10, atol=tol)


# Cells of 16 or more float32 elements go through the vector kernels
# (vec_tanh.h); the tests below reach them with a trailing axis that long.
FULL = os.environ.get('CHAINERLITE_FUZZ') == 'full'


@pytest.mark.parametrize('units, rest', [(1, 16), (2, 37), (1, 650), (3, 33)])
def test_vector_cells_against_the_formula(units, rest):
    # blocks of 16 cells and every kind of tail, wide gates, rows past the
    # batch; the saved and the recomputed gradients agree bit for bit
    rng = np.random.default_rng(rest)
    batch = 3
    shape = (batch + 1, units, rest)
    c_prev = rng.uniform(-3, 3, shape).astype(np.float32)
    x = rng.uniform(-12, 12, (batch, 4 * units, rest)).astype(np.float32)
    gc = rng.uniform(-1, 1, shape).astype(np.float32)
    gh = rng.uniform(-1, 1, (batch, units, rest)).astype(np.float32)
    c_next, h = np.empty_like(c_prev), np.empty_like(gh)
    act = lstm_kernels.lstm_forward(c_prev, x, c_next, h, True)
    grads = []
    for saved in (act, None):
        gc_prev, gx = np.empty_like(c_prev), np.empty_like(x)
        lstm_kernels.lstm_backward(c_prev, x, c_next, gc, gh, gc_prev, gx, saved)
        grads.append((gc_prev, gx))
    for a, b in zip(*grads):
        np.testing.assert_array_equal(a, b)
    wide = [a.astype(np.longdouble) for a in (c_prev, x, gc, gh)]
    for got, ref in zip((c_next, h) + grads[0], _reference(*wide)):
        np.testing.assert_allclose(got, ref.astype(np.float64), rtol=2e-6, atol=2e-6)


def _ulps(got, x):
    # |got - tanh(x)| in units in the last place of float32 tanh(x)
    exact = np.tanh(x.astype(np.float64))
    unit = np.spacing(np.abs(exact.astype(np.float32))).astype(np.float64)
    return np.abs(got.astype(np.float64) - exact) / unit


def _bit_patterns(step):
    # every ``step``-th float32 bit pattern (both signs, NaNs and infinities
    # among them), in chunks
    chunk = 1 << 22
    for start in range(0, 1 << 32, chunk * step):
        stop = min(start + chunk * step, 1 << 32)
        yield np.arange(start, stop, step, dtype=np.uint64).astype(np.uint32)


def test_vector_tanh_and_sigmoid_over_the_float32_range():
    # The gates' activations are what the forward saves: a = tanh(x_a),
    # i = sigmoid(x_i) (tanh(x / 2) / 2 + 1 / 2, Chainer's formula), and
    # tanh(c). tanh stays within 2 units in the last place of the exact
    # value over every float32 (a slice of them without
    # CHAINERLITE_FUZZ=full; measured: at most 1.03 with FMA, 1.16
    # without), the sigmoid within 2 units of its formula evaluated exactly
    # from the float32 x / 2.
    rest = 4099  # blocks of 16 and a tail of 3
    worst = 0.0
    for bits in _bit_patterns(1 if FULL else 509):
        v = bits.view(np.float32)
        v = np.concatenate([v, np.zeros(-len(v) % rest, np.float32)])
        rows = len(v) // rest
        x = np.zeros((rows, 4, rest), np.float32)
        x[:, 0] = x[:, 1] = v.reshape(rows, rest)
        c_prev = np.zeros((rows, 1, rest), np.float32)
        c_next, h = np.empty_like(c_prev), np.empty_like(c_prev)
        act = lstm_kernels.lstm_forward(c_prev, x, c_next, h, True)
        a, i, tc = act[:, 0, 0].ravel(), act[:, 0, 1].ravel(), act[:, 0, 4].ravel()
        finite = np.isfinite(v)
        err = _ulps(a[finite], v[finite])
        worst = max(worst, err.max())
        with np.errstate(over='ignore', under='ignore'):
            half = (v[finite] * np.float32(0.5)).astype(np.float64)
        sig = np.tanh(half) * 0.5 + 0.5
        assert np.abs(i[finite] - sig).max() <= 2 * 2.0**-24
        c = c_next.ravel()
        assert _ulps(tc[np.isfinite(c)], c[np.isfinite(c)]).max() <= 2
    assert worst <= 2
    special = np.array(
        [
            np.inf,
            -np.inf,
            np.nan,
            -np.nan,
            0.0,
            -0.0,
            1e-45,
            -1e-45,
            1e-40,
            -3e38,
            9.5,
            -9.4,
            1.0,
            -1.0,
            0.9999999,
            20.0,
        ],
        np.float32,
    )
    x = np.zeros((1, 4, len(special)), np.float32)
    x[0, 0] = x[0, 1] = special
    act = lstm_kernels.lstm_forward(
        np.zeros((1, 1, 16), np.float32),
        x,
        np.empty((1, 1, 16), np.float32),
        np.empty((1, 1, 16), np.float32),
        True,
    )
    a, i = act[0, 0, 0], act[0, 0, 1]
    # NaN, infinities, zeros, denormals, huge: as libm gives them
    np.testing.assert_array_equal(a[:10], np.tanh(special[:10]))
    assert _ulps(a[10:], special[10:]).max() <= 2
    np.testing.assert_array_equal(np.signbit(a), np.signbit(special))
    np.testing.assert_array_equal(i[:4], [1, 0, np.nan, np.nan])
