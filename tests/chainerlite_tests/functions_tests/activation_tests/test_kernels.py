"""The fused CuPy kernels of the activations against the NumPy path."""

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.backends import cuda
from chainerlite.functions.activation import _kernels
from chainerlite.testing import attr

# name: (function, the kernels its GPU forward and backward run)
CASES = {
    'elu': (lambda x: F.elu(x, alpha=0.7), (_kernels.elu_fwd, _kernels.elu_bwd)),
    'relu': (F.relu, (_kernels.relu_fwd, _kernels.relu_bwd)),
    'leaky_relu': (
        lambda x: F.leaky_relu(x, slope=0.3),
        (_kernels.leaky_relu_fwd, _kernels.leaky_relu_bwd),
    ),
    'leaky_relu_steep': (
        lambda x: F.leaky_relu(x, slope=1.5),
        (_kernels.leaky_relu_fwd, _kernels.leaky_relu_bwd),
    ),
    'clipped_relu': (
        lambda x: F.clipped_relu(x, z=1.5),
        (_kernels.clipped_relu_fwd, _kernels.clipped_relu_bwd),
    ),
    'hard_sigmoid': (
        F.hard_sigmoid,
        (_kernels.hard_sigmoid_fwd, _kernels.hard_sigmoid_bwd),
    ),
    'sigmoid': (F.sigmoid, (_kernels.sigmoid_fwd, _kernels.sigmoid_bwd)),
    'tanh': (F.tanh, (_kernels.tanh_fwd, _kernels.tanh_bwd)),
    'softplus': (
        lambda x: F.softplus(x, beta=2.0),
        (_kernels.softplus_fwd, _kernels.softplus_bwd),
    ),
    'gelu': (F.gelu, (_kernels.gelu_fwd, _kernels.gelu_bwd)),
    'softmax': (
        lambda x: F.softmax(x, axis=1),
        (
            _kernels.sum_exp_shifted,
            _kernels.softmax_fwd,
            _kernels.sum_product,
            _kernels.softmax_bwd,
        ),
    ),
    'log_softmax': (
        lambda x: F.log_softmax(x, axis=0),
        (_kernels.sum_exp_shifted, _kernels.log_softmax_fwd, _kernels.log_softmax_bwd),
    ),
}
TOL = {
    numpy.float16: dict(atol=5e-3, rtol=5e-3),
    numpy.float32: dict(atol=1e-6, rtol=1e-5),
    numpy.float64: dict(atol=1e-12, rtol=1e-10),
}


def _forward_backward(f, x, gy):
    x = chainerlite.Variable(x)
    y = f(x)
    y.grad = gy
    y.backward()
    return y.array, x.grad


def _assert_close(actual, expected, dtype):
    assert isinstance(actual, cuda.ndarray) and actual.dtype == dtype
    numpy.testing.assert_allclose(cuda.to_cpu(actual), expected, **TOL[dtype])


@attr.gpu
@pytest.mark.parametrize('dtype', sorted(TOL, key=str))
@pytest.mark.parametrize('name', sorted(CASES))
def test_kernel_path_matches_the_numpy_path(name, dtype):
    f, kernels = CASES[name]
    x = numpy.random.uniform(-4, 4, (3, 5)).astype(dtype)
    gy = numpy.random.uniform(-1, 1, (3, 5)).astype(dtype)
    y, gx = _forward_backward(f, x, gy)
    y_gpu, gx_gpu = _forward_backward(f, cuda.to_gpu(x), cuda.to_gpu(gy))
    _assert_close(y_gpu, y, dtype)
    _assert_close(gx_gpu, gx, dtype)
    # the fused kernels ran (each made once for this device)
    device = cuda.cupy.cuda.runtime.getDevice()
    assert all(device in k._by_device for k in kernels)


@attr.gpu
def test_swish_kernels_match_the_numpy_path():
    x = numpy.random.uniform(-4, 4, (2, 3, 4))
    beta = numpy.random.uniform(0.5, 2, (3,))
    gy = numpy.random.uniform(-1, 1, (2, 3, 4))

    def run(x, beta, gy):
        xs = chainerlite.Variable(x), chainerlite.Variable(beta)
        y = F.swish(*xs)
        y.grad = gy
        y.backward()
        return y.array, xs[0].grad, xs[1].grad

    expected = run(x, beta, gy)
    actual = run(*cuda.to_gpu((x, beta, gy)))
    for a, e in zip(actual, expected):
        _assert_close(a, e, numpy.float64)


@attr.gpu
@pytest.mark.parametrize('name', ['elu', 'softmax', 'gelu'])
def test_double_backprop_on_the_gpu_takes_the_graph_path(name):
    f = CASES[name][0]
    x = cuda.to_gpu(numpy.random.uniform(-2, 2, (2, 3)))
    gy = cuda.to_gpu(numpy.random.uniform(-1, 1, (2, 3)))
    gradient_check.check_backward(f, x, gy, atol=1e-6, rtol=1e-5)
