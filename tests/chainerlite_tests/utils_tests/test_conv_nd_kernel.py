"""The N-d im2col/col2im CUDA kernels: their parameters, their
registration for ``make check-kernels``, and (on a GPU) their results
against the NumPy path."""

from unittest import mock

import numpy
import pytest

from chainerlite.backends import cuda
from chainerlite.backends import cuda_kernel
from chainerlite.testing import attr
from chainerlite.utils import conv_nd
from chainerlite.utils import conv_nd_kernel


@pytest.mark.parametrize('ndim', [1, 2, 3])
def test_generated_parameters_and_names(ndim):
    axes = ', '.join(
        'int32 {}_{}'.format(name, a)
        for name in ('d', 'out', 'k', 's', 'p', 'di')
        for a in range(ndim)
    )
    in_params, out_params, operation, name = conv_nd_kernel.Im2colNDKernel.generate(
        ndim
    )
    assert (in_params, out_params, name) == (
        'raw T img, ' + axes,
        'T col',
        'im2col_%dd' % ndim,
    )
    assert operation.count('j_%d' % (ndim - 1)) > 0
    in_params, out_params, operation, name = conv_nd_kernel.Col2imNDKernel.generate(
        ndim
    )
    assert (in_params, out_params, name) == (
        'raw T col, ' + axes,
        'T img',
        'col2im_%dd' % ndim,
    )
    # one loop per axis, closed
    assert operation.count('for (') == ndim
    assert operation.count('{') == operation.count('}')


def test_kernels_of_one_to_three_axes_are_registered_once():
    registered = cuda_kernel.registered()
    for ndim in (1, 2, 3):
        assert conv_nd_kernel.im2col_kernel(ndim) in registered
        assert conv_nd_kernel.col2im_kernel(ndim) is conv_nd_kernel.col2im_kernel(ndim)


def test_split_and_flat_index_are_inverse_in_python():
    # The C expressions are plain integer arithmetic: run them as Python.
    lengths = [3, 4, 5]
    split = conv_nd_kernel.split_index('rest', ['a', 'b', 'c'], ['L0', 'L1', 'L2'])
    flat = conv_nd_kernel.flat_index('rest', ['a', 'b', 'c'], ['L0', 'L1', 'L2'])
    env = dict(zip(['L0', 'L1', 'L2'], lengths))
    for index in (0, 7, 59, 2 * 60 + 33):
        scope = dict(env, rest=index)
        for line in split.splitlines():
            line = line.replace('const int ', '').rstrip(';').replace('/=', '//=')
            exec(line, {}, scope)
        assert eval(flat, {}, scope) == index


@attr.gpu
@pytest.mark.parametrize(
    'shape, ksize, stride, pad, dilate',
    [
        ((2, 3, 7), (3,), (2,), (1,), (1,)),
        ((2, 2, 5, 6), (2, 3), (1, 2), (1, 0), (2, 1)),
        ((1, 2, 4, 5, 3), (2, 2, 2), (2, 1, 1), (0, 1, 1), (1, 1, 2)),
    ],
)
def test_kernels_match_numpy(shape, ksize, stride, pad, dilate):
    img = numpy.random.uniform(-1, 1, shape).astype(numpy.float32)
    expected = conv_nd.im2col_nd_cpu(img, ksize, stride, pad, dilate=dilate)
    col = conv_nd.im2col_nd_gpu(cuda.to_gpu(img), ksize, stride, pad, dilate=dilate)
    numpy.testing.assert_array_equal(cuda.to_cpu(col), expected)
    gcol = numpy.random.uniform(-1, 1, expected.shape).astype(numpy.float32)
    expected = conv_nd.col2im_nd_cpu(gcol, stride, pad, shape[2:], dilate=dilate)
    img = conv_nd.col2im_nd_gpu(
        cuda.to_gpu(gcol), stride, pad, shape[2:], dilate=dilate
    )
    numpy.testing.assert_allclose(cuda.to_cpu(img), expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    'kernel', [conv_nd_kernel.Im2colNDKernel, conv_nd_kernel.Col2imNDKernel]
)
@pytest.mark.parametrize('ndim', [2, 4])
def test_source_is_written_once_per_ndim(kernel, ndim):
    # as Chainer: generate is memoized (cleared by cuda.clear_memo) over
    # _generate, which writes the source
    cuda.clear_memo()
    with mock.patch.object(kernel, '_generate') as write:
        kernel.generate(ndim)
        kernel.generate(ndim)
    write.assert_called_once_with(ndim)
    cuda.clear_memo()
