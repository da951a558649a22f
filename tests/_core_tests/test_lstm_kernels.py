"""The compiled LSTM cell against a NumPy reference of its formula.

``tanh`` and ``exp`` come from the C library in the kernels, so values
agree to a few units in the last place, not bit for bit.
"""

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F


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
