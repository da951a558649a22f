"""The fused CuPy kernels of softmax cross entropy against the NumPy path."""

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite.backends import cuda
from chainerlite.functions.loss import _kernels
from chainerlite.testing import attr

TOL = {
    numpy.float16: dict(atol=5e-3, rtol=5e-3),
    numpy.float32: dict(atol=1e-6, rtol=1e-5),
    numpy.float64: dict(atol=1e-12, rtol=1e-10),
}


def _run(x, t, gloss, **kwargs):
    x = chainerlite.Variable(x)
    loss = F.softmax_cross_entropy(x, t, **kwargs)
    loss.grad = gloss
    loss.backward()
    return loss.array, x.grad


@attr.gpu
@pytest.mark.parametrize('dtype', sorted(TOL, key=str))
@pytest.mark.parametrize('shape', [(4, 3), (2, 3, 2)])
@pytest.mark.parametrize('kwargs', [{}, {'normalize': False}, {'reduce': 'no'}])
def test_softmax_cross_entropy_kernels_match_the_numpy_path(dtype, shape, kwargs):
    x = numpy.random.uniform(-3, 3, shape).astype(dtype)
    t = numpy.random.randint(0, shape[1], shape[:1] + shape[2:])
    t.ravel()[0] = -1  # one ignored label
    loss_shape = t.shape if kwargs.get('reduce') == 'no' else ()
    gloss = numpy.random.uniform(0.5, 1.5, loss_shape).astype(dtype)
    expected = _run(x, t, gloss, **kwargs)
    actual = _run(*cuda.to_gpu((x, t, gloss)), **kwargs)
    for a, e in zip(actual, expected):
        assert isinstance(a, cuda.ndarray) and a.dtype == dtype
        numpy.testing.assert_allclose(cuda.to_cpu(a), e, **TOL[dtype])
    device = cuda.cupy.cuda.runtime.getDevice()
    assert device in _kernels.sce_fwd._by_device
    assert device in _kernels.sce_bwd._by_device


@attr.gpu
def test_bad_labels_are_still_an_error_on_the_gpu():
    x = cuda.cupy.zeros((2, 3), numpy.float32)
    t = cuda.cupy.array([0, 3], numpy.int32)
    with pytest.raises(ValueError, match='softmax_cross_entropy'):
        F.softmax_cross_entropy(x, t)
