"""The CuPy kernels of WeightDecay and GradientClipping."""

import numpy
import pytest

import chainerlite
from chainerlite import optimizer_hooks
from chainerlite import optimizers
from chainerlite.backends import cuda
from chainerlite.optimizer_hooks import _kernels
from chainerlite.testing import attr


def _step(hook, arrays, grads, to_device):
    link = chainerlite.Link()
    with link.init_scope():
        for i, a in enumerate(arrays):
            setattr(link, 'w%d' % i, chainerlite.Parameter(to_device(a)))
    opt = optimizers.SGD(lr=0.5).setup(link)
    opt.add_hook(hook)
    for i, g in enumerate(grads):
        getattr(link, 'w%d' % i).grad = to_device(g)
    opt.update()
    return [cuda.to_cpu(getattr(link, 'w%d' % i).array) for i in range(len(arrays))]


@attr.gpu
@pytest.mark.parametrize(
    'hook, kernel',
    [
        (lambda: optimizer_hooks.WeightDecay(0.3), _kernels.weight_decay),
        (lambda: optimizer_hooks.GradientClipping(0.5), _kernels.sqnorm),
    ],
)
def test_hook_kernels_match_the_numpy_path(hook, kernel):
    arrays = [
        numpy.random.uniform(-1, 1, s).astype(numpy.float32) for s in ((3, 4), (5,))
    ]
    grads = [numpy.random.uniform(-1, 1, a.shape).astype(numpy.float32) for a in arrays]
    expected = _step(hook(), [a.copy() for a in arrays], grads, lambda a: a)
    actual = _step(hook(), arrays, grads, cuda.to_gpu)
    for a, e in zip(actual, expected):
        numpy.testing.assert_allclose(a, e, atol=1e-6, rtol=1e-5)
    assert cuda.cupy.cuda.runtime.getDevice() in kernel._by_device
