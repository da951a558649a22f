"""The fused CuPy kernels of the update rules against the NumPy path."""

import numpy
import pytest

import chainerlite
from chainerlite import optimizers
from chainerlite.backends import cuda
from chainerlite.optimizers import _kernels
from chainerlite.testing import attr

# name: (optimizer factory, the kernel its update runs)
CASES = {
    'sgd': (lambda: optimizers.SGD(lr=0.1), _kernels.sgd),
    'momentum_sgd': (
        lambda: optimizers.MomentumSGD(lr=0.1, momentum=0.8),
        _kernels.momentum_sgd,
    ),
    'adam': (lambda: optimizers.Adam(alpha=0.01, weight_decay_rate=0.1), _kernels.adam),
    'amsgrad': (
        lambda: optimizers.Adam(alpha=0.01, amsgrad=True),
        _kernels.adam_amsgrad,
    ),
    'adabound': (lambda: optimizers.AdaBound(alpha=0.01, final_lr=0.05), _kernels.adam),
    'rmsprop': (lambda: optimizers.RMSprop(lr=0.01), _kernels.rmsprop),
    'rmsprop_eps_inside': (
        lambda: optimizers.RMSprop(lr=0.01, eps=1e-2, eps_inside_sqrt=True),
        _kernels.rmsprop,
    ),
    'ada_grad': (lambda: optimizers.AdaGrad(lr=0.1), _kernels.ada_grad),
}
TOL = {
    numpy.float16: dict(atol=2e-3, rtol=2e-3),
    numpy.float32: dict(atol=1e-6, rtol=1e-5),
}


def _train(make_optimizer, w, grads, to_device):
    link = chainerlite.Link()
    with link.init_scope():
        link.w = chainerlite.Parameter(to_device(w.copy()))
    opt = make_optimizer().setup(link)
    for g in grads:
        link.w.grad = to_device(g)
        opt.update()
    return link.w.array


@attr.gpu
@pytest.mark.parametrize('dtype', sorted(TOL, key=str))
@pytest.mark.parametrize('name', sorted(CASES))
def test_kernel_update_matches_the_numpy_update(name, dtype):
    make_optimizer, kernel = CASES[name]
    w = numpy.random.uniform(-1, 1, (4, 3)).astype(dtype)
    grads = [numpy.random.uniform(-1, 1, (4, 3)).astype(dtype) for _ in range(3)]
    expected = _train(make_optimizer, w, grads, lambda a: a)
    actual = _train(make_optimizer, w, grads, cuda.to_gpu)
    assert isinstance(actual, cuda.ndarray) and actual.dtype == dtype
    numpy.testing.assert_allclose(cuda.to_cpu(actual), expected, **TOL[dtype])
    assert cuda.cupy.cuda.runtime.getDevice() in kernel._by_device


@attr.gpu
def test_adam_eps_too_small_for_float16_is_an_error_on_the_gpu_too():
    link = chainerlite.Link()
    with link.init_scope():
        link.w = chainerlite.Parameter(cuda.cupy.ones(2, numpy.float32))
    opt = optimizers.Adam(eps=1e-50).setup(link)
    link.w.grad = cuda.cupy.ones(2, numpy.float32)
    with pytest.raises(ValueError, match='eps of Adam'):
        opt.update()
