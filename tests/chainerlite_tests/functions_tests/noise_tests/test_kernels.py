"""The fused CuPy kernel of dropout."""

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite.backends import cuda
from chainerlite.functions.noise import _kernels
from chainerlite.testing import attr


@attr.gpu
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
def test_dropout_kernel_applies_the_mask_it_returns(dtype):
    x = numpy.random.uniform(-1, 1, (50, 40)).astype(dtype)
    gy = numpy.random.uniform(-1, 1, (50, 40)).astype(dtype)
    xv = chainerlite.Variable(cuda.to_gpu(x))
    y, mask = F.dropout(xv, 0.25, return_mask=True)
    device = cuda.cupy.cuda.runtime.getDevice()
    assert device in _kernels.dropout_fwd._by_device
    mask = cuda.to_cpu(mask)
    scale = dtype(1 / 0.75)
    assert mask.dtype == dtype and set(numpy.unique(mask)) <= {0, scale}
    assert 0.15 < (mask == 0).mean() < 0.35
    numpy.testing.assert_array_equal(cuda.to_cpu(y.array), x * mask)
    y.grad = cuda.to_gpu(gy)
    y.backward()
    numpy.testing.assert_array_equal(cuda.to_cpu(xv.grad), gy * mask)
