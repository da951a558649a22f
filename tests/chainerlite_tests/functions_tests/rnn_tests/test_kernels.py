"""The fused CuPy kernels of the LSTM cell against the NumPy path."""

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.backends import cuda
from chainerlite.functions.rnn import _kernels
from chainerlite.testing import attr

TOL = {
    numpy.float16: dict(atol=5e-3, rtol=5e-3),
    numpy.float32: dict(atol=1e-6, rtol=1e-5),
    numpy.float64: dict(atol=1e-12, rtol=1e-10),
}


def _run(c, x, gc, gh):
    c, x = chainerlite.Variable(c), chainerlite.Variable(x)
    c_next, h = F.lstm(c, x)
    c_next.grad, h.grad = gc, gh
    h.backward()
    return c_next.array, h.array, c.grad, x.grad


@attr.gpu
@pytest.mark.parametrize('dtype', sorted(TOL, key=str))
@pytest.mark.parametrize('batch', [3, 2])  # 2: fewer rows than c_prev
def test_lstm_kernels_match_the_numpy_path(dtype, batch):
    c = numpy.random.uniform(-1, 1, (3, 4)).astype(dtype)
    x = numpy.random.uniform(-2, 2, (batch, 16)).astype(dtype)
    gc = numpy.random.uniform(-1, 1, (3, 4)).astype(dtype)
    gh = numpy.random.uniform(-1, 1, (batch, 4)).astype(dtype)
    expected = _run(c, x, gc, gh)
    actual = _run(*cuda.to_gpu((c, x, gc, gh)))
    for a, e in zip(actual, expected):
        assert isinstance(a, cuda.ndarray) and a.dtype == dtype
        numpy.testing.assert_allclose(cuda.to_cpu(a), e, **TOL[dtype])
    device = cuda.cupy.cuda.runtime.getDevice()
    assert device in _kernels.lstm_fwd._by_device
    assert device in _kernels.lstm_bwd._by_device


@attr.gpu
def test_lstm_double_backprop_on_the_gpu():
    c = cuda.to_gpu(numpy.random.uniform(-1, 1, (2, 3)))
    x = cuda.to_gpu(numpy.random.uniform(-1, 1, (2, 12)))
    gys = cuda.to_gpu([numpy.random.uniform(-1, 1, (2, 3)) for _ in '12'])
    gradient_check.check_backward(F.lstm, (c, x), gys, atol=1e-6, rtol=1e-5)
