import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.utils import type_check


def _inputs(x_shape, out_size, in_size, dtype=numpy.float64):
    x = numpy.random.uniform(-1, 1, x_shape).astype(dtype)
    W = numpy.random.uniform(-1, 1, (out_size, in_size)).astype(dtype)
    b = numpy.random.uniform(-1, 1, out_size).astype(dtype)
    return x, W, b


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_forward(dtype):
    x, W, b = _inputs((4, 3), 2, 3, dtype)
    y = F.linear(x, W, b)
    assert y.dtype == dtype
    tol = 1e-2 if dtype == numpy.float16 else 1e-5
    numpy.testing.assert_allclose(
        y.array, x.astype(numpy.float64) @ W.T + b, rtol=tol, atol=tol
    )


def test_forward_without_bias():
    x, W, _ = _inputs((4, 3), 2, 3)
    numpy.testing.assert_allclose(F.linear(x, W).array, x @ W.T)


@pytest.mark.parametrize(
    'x_shape, n_batch_axes, y_shape',
    [
        ((4, 3, 2), 1, (4, 5)),
        ((4, 3, 2), 2, (4, 3, 5)),
        ((2, 2, 3, 2), 3, (2, 2, 3, 5)),
    ],
)
def test_batch_axes(x_shape, n_batch_axes, y_shape):
    in_size = int(numpy.prod(x_shape[n_batch_axes:]))
    x, W, b = _inputs(x_shape, 5, in_size)
    y = F.linear(x, W, b, n_batch_axes=n_batch_axes)
    assert y.shape == y_shape
    expected = x.reshape(-1, in_size) @ W.T + b
    numpy.testing.assert_allclose(y.array, expected.reshape(y_shape))
    gy = numpy.random.uniform(-1, 1, y_shape)

    def f(x, W, b):
        return F.linear(x, W, b, n_batch_axes=n_batch_axes)

    gradient_check.check_backward(f, (x, W, b), gy)


def test_n_batch_axes_must_be_positive():
    x, W, b = _inputs((4, 3), 2, 3)
    with pytest.raises(ValueError):
        F.linear(x, W, b, n_batch_axes=0)


@pytest.mark.parametrize('nobias', [False, True])
def test_backward_and_double_backward(nobias):
    x, W, b = _inputs((4, 3), 2, 3)
    inputs = (x, W) if nobias else (x, W, b)
    gy = numpy.random.uniform(-1, 1, (4, 2))
    ggs = tuple(numpy.random.uniform(-1, 1, a.shape) for a in inputs)
    gradient_check.check_backward(F.linear, inputs, gy)
    gradient_check.check_double_backward(F.linear, inputs, gy, ggs)


def test_mixed_precision_gradients_keep_dtypes():
    x = chainerlite.Variable(numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float16))
    W = chainerlite.Variable(numpy.random.uniform(-1, 1, (2, 3)).astype(numpy.float32))
    y = F.linear(x, W)
    assert y.dtype == numpy.float16
    y.grad = numpy.ones((4, 2), numpy.float16)
    y.backward()
    assert x.grad.dtype == numpy.float16
    assert W.grad.dtype == numpy.float32
    numpy.testing.assert_allclose(
        W.grad, numpy.ones((2, 4)) @ x.array.astype(numpy.float32), rtol=1e-3
    )


@pytest.mark.parametrize(
    'x_shape, w_shape, b_shape, b_dtype',
    [
        ((4, 3), (2, 4), (2,), numpy.float32),
        ((4,), (2, 4), (2,), numpy.float32),
        ((4, 3), (2, 3), (3,), numpy.float32),
        ((4, 3), (2, 3), (2,), numpy.float64),
    ],
)
def test_invalid_inputs(x_shape, w_shape, b_shape, b_dtype):
    x = numpy.zeros(x_shape, numpy.float32)
    W = numpy.zeros(w_shape, numpy.float32)
    b = numpy.zeros(b_shape, b_dtype)
    if len(x_shape) < 2:
        # the check reads x.shape[1]: IndexError, as in Chainer 7.8.1
        with pytest.raises(IndexError):
            F.linear(x, W, b)
        return
    with pytest.raises(type_check.InvalidType, match='LinearFunction'):
        F.linear(x, W, b)
