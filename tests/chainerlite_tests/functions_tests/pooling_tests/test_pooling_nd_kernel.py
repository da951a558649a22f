"""The N-d max/average pooling CUDA kernels: parameters, registration for
``make check-kernels`` and (on a GPU) results against the NumPy path."""

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite.backends import cuda
from chainerlite.backends import cuda_kernel
from chainerlite.functions.pooling import average_pooling_nd_kernel as avg
from chainerlite.functions.pooling import max_pooling_nd_kernel as mx
from chainerlite.testing import attr


def _axes(ndim):
    return ', '.join(
        'int32 {}_{}'.format(name, a)
        for name in ('d', 'out', 'k', 's', 'p')
        for a in range(ndim)
    )


@pytest.mark.parametrize(
    'generator, in_params, out_params, name',
    [
        (
            mx.MaxPoolingNDKernelForward,
            'raw T in, {}',
            'T out, S indexes',
            'max_pool_2d_fwd',
        ),
        (
            mx.MaxPoolingNDKernelBackward,
            'raw T gy, raw S indexes, {}',
            'T gx',
            'max_pool_2d_bwd',
        ),
        (
            avg.AveragePoolingNDKernelForward,
            'raw T in, {}, T coeff',
            'T out',
            'avg_pool_2d_fwd',
        ),
        (avg.AveragePoolingNDKernelBackward, 'raw T gy, {}', 'T gx', 'avg_pool_2d_bwd'),
    ],
)
def test_generated_parameters_and_names(generator, in_params, out_params, name):
    params_in, params_out, operation, kernel_name = generator.generate(2)
    assert params_in == in_params.format(_axes(2))
    assert (params_out, kernel_name) == (out_params, name)
    assert operation.count('for (') == 2
    assert operation.count('{') == operation.count('}')


def test_kernels_of_one_to_three_axes_are_registered():
    registered = cuda_kernel.registered()
    for ndim in (1, 2, 3):
        for generator in (mx.MaxPoolingNDKernelForward, mx.MaxPoolingNDKernelBackward):
            assert mx.kernel(generator, ndim) in registered
        for generator in (
            avg.AveragePoolingNDKernelForward,
            avg.AveragePoolingNDKernelBackward,
        ):
            assert avg.kernel(generator, ndim) in registered


def _pool_both(func, x, gy):
    results = []
    for xp_x, xp_gy in ((x, gy), (cuda.to_gpu(x), cuda.to_gpu(gy))):
        v = chainerlite.Variable(xp_x)
        y = func(v)
        y.grad = xp_gy
        y.backward()
        results.append((cuda.to_cpu(y.array), cuda.to_cpu(v.grad)))
    return results


@attr.gpu
@pytest.mark.parametrize(
    'shape, ksize, stride, pad',
    [
        ((2, 3, 7), 3, 2, 1),
        ((2, 2, 5, 6), (2, 3), (1, 2), (1, 0)),
        ((1, 2, 4, 5, 3), 2, 1, 1),
    ],
)
def test_gpu_poolings_match_numpy(shape, ksize, stride, pad):
    x = numpy.random.permutation(numpy.prod(shape)).reshape(shape).astype(numpy.float32)
    for func in (
        lambda v: F.max_pooling_nd(v, ksize, stride, pad),
        lambda v: F.average_pooling_nd(v, ksize, stride, pad),
    ):
        y_shape = func(x).shape
        gy = numpy.random.uniform(-1, 1, y_shape).astype(numpy.float32)
        (y_cpu, gx_cpu), (y_gpu, gx_gpu) = _pool_both(func, x, gy)
        numpy.testing.assert_allclose(y_gpu, y_cpu, rtol=1e-6)
        numpy.testing.assert_allclose(gx_gpu, gx_cpu, rtol=1e-5, atol=1e-6)
