"""The fused CuPy kernels of batch normalization against the NumPy path."""

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.backends import cuda
from chainerlite.functions.normalization import _kernels
from chainerlite.testing import attr

TOL = {
    numpy.float16: dict(atol=1e-2, rtol=1e-2),
    numpy.float32: dict(atol=1e-5, rtol=1e-4),
    numpy.float64: dict(atol=1e-10, rtol=1e-9),
}


def _run(x, gamma, beta, gy, running, axis):
    xs = [chainerlite.Variable(a) for a in (x, gamma, beta)]
    y = F.batch_normalization(
        *xs, running_mean=running[0], running_var=running[1], axis=axis
    )
    y.grad = gy
    y.backward()
    return [y.array] + [v.grad for v in xs] + list(running)


@attr.gpu
@pytest.mark.parametrize('dtype', sorted(TOL, key=str))
@pytest.mark.parametrize(
    'shape, axis', [((5, 3), None), ((4, 3, 2, 2), None), ((2, 3, 4), (0, 1))]
)
def test_batch_normalization_kernels_match_the_numpy_path(dtype, shape, axis):
    x = numpy.random.uniform(-2, 2, shape).astype(dtype)
    kept = [
        n
        for i, n in enumerate(shape)
        if i not in ((0,) + tuple(range(2, len(shape))) if axis is None else axis)
    ]
    gamma = numpy.random.uniform(0.5, 1.5, kept).astype(dtype)
    beta = numpy.random.uniform(-1, 1, kept).astype(dtype)
    gy = numpy.random.uniform(-1, 1, shape).astype(dtype)
    running = [numpy.zeros(kept, dtype), numpy.ones(kept, dtype)]
    expected = _run(x, gamma, beta, gy, running, axis)
    actual = _run(
        *cuda.to_gpu((x, gamma, beta, gy)),
        cuda.to_gpu([numpy.zeros(kept, dtype), numpy.ones(kept, dtype)]),
        axis,
    )
    for a, e in zip(actual, expected):
        assert isinstance(a, cuda.ndarray) and a.dtype == dtype
        numpy.testing.assert_allclose(cuda.to_cpu(a), e, **TOL[dtype])
    device = cuda.cupy.cuda.runtime.getDevice()
    for k in (
        _kernels.sum_sq_dev,
        _kernels.bn_stats,
        _kernels.bn_fwd,
        _kernels.bn_running,
        _kernels.bn_grad_sums,
        _kernels.bn_bwd,
    ):
        assert device in k._by_device


@attr.gpu
def test_batch_normalization_double_backprop_on_the_gpu():
    x = cuda.to_gpu(numpy.random.uniform(-1, 1, (4, 3)))
    gamma = cuda.to_gpu(numpy.random.uniform(0.5, 1.5, (3,)))
    beta = cuda.to_gpu(numpy.random.uniform(-1, 1, (3,)))
    gy = cuda.to_gpu(numpy.random.uniform(-1, 1, (4, 3)))
    gradient_check.check_backward(
        F.batch_normalization, (x, gamma, beta), gy, atol=1e-5, rtol=1e-4
    )


@attr.gpu
@pytest.mark.parametrize('dtype', sorted(TOL, key=str))
def test_layer_normalization_kernels_match_the_numpy_path(dtype):
    x = numpy.random.uniform(-2, 2, (4, 6)).astype(dtype)
    gamma = numpy.random.uniform(0.5, 1.5, (6,)).astype(dtype)
    beta = numpy.random.uniform(-1, 1, (6,)).astype(dtype)
    gy = numpy.random.uniform(-1, 1, (4, 6)).astype(dtype)

    def run(x, gamma, beta, gy):
        xs = [chainerlite.Variable(a) for a in (x, gamma, beta)]
        y = F.layer_normalization(*xs)
        y.grad = gy
        y.backward()
        return [y.array] + [v.grad for v in xs]

    expected = run(x, gamma, beta, gy)
    actual = run(*cuda.to_gpu((x, gamma, beta, gy)))
    for a, e in zip(actual, expected):
        assert isinstance(a, cuda.ndarray) and a.dtype == dtype
        numpy.testing.assert_allclose(cuda.to_cpu(a), e, **TOL[dtype])
    assert cuda.cupy.cuda.runtime.getDevice() in _kernels.bn_bwd._by_device
