import numpy
import pytest

import chainerlite
from chainerlite import optimizer_hooks
from chainerlite import optimizers


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_lasso_adds_rate_times_sign(dtype):
    link = chainerlite.Link()
    with link.init_scope():
        link.w = chainerlite.Parameter(numpy.array([2.0, -3.0, 0.0], dtype))
    opt = optimizers.SGD(lr=1.0).setup(link)
    opt.add_hook(optimizer_hooks.Lasso(0.5))
    link.w.grad = numpy.array([1.0, 1.0, 1.0], dtype)
    opt.update()
    assert link.w.dtype == dtype
    numpy.testing.assert_allclose(link.w.array, [0.5, -3.5, -1.0])


def test_lasso_attributes_and_missing_grad():
    hook = optimizer_hooks.Lasso(0.1)
    assert (hook.name, hook.timing, hook.call_for_each_param) == ('Lasso', 'pre', True)
    param = chainerlite.Parameter(numpy.array([1.0]))
    hook(None, param)
    assert param.grad is None
