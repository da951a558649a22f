import numpy
import pytest

import chainerlite
from chainerlite import optimizer_hooks
from chainerlite import optimizers


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_clips_each_element(dtype):
    link = chainerlite.Link()
    with link.init_scope():
        link.w = chainerlite.Parameter(numpy.zeros(4, dtype))
    opt = optimizers.SGD(lr=1.0).setup(link)
    opt.add_hook(optimizer_hooks.GradientHardClipping(-0.5, 1.0))
    link.w.grad = numpy.array([-2.0, -0.25, 0.5, 3.0], dtype)
    opt.update()
    assert link.w.dtype == dtype
    numpy.testing.assert_array_equal(link.w.array, [0.5, 0.25, -0.5, -1.0])


def test_attributes_and_missing_grad():
    hook = optimizer_hooks.GradientHardClipping(-1.0, 2.0)
    assert (hook.lower_bound, hook.upper_bound) == (-1.0, 2.0)
    assert (hook.name, hook.timing, hook.call_for_each_param) == (
        'GradientHardClipping',
        'pre',
        True,
    )
    param = chainerlite.Parameter(numpy.array([1.0]))
    hook(None, param)
    assert param.grad is None
