import numpy
import pytest

import chainerlite
from chainerlite import optimizer_hooks
from chainerlite import optimizers


def _run(threshold, grads, dtype=numpy.float64):
    link = chainerlite.Link()
    with link.init_scope():
        link.a = chainerlite.Parameter(numpy.zeros(2, dtype))
        link.b = chainerlite.Parameter(numpy.zeros((1, 1), dtype))
    opt = optimizers.SGD(lr=1.0).setup(link)
    opt.add_hook(optimizer_hooks.GradientClipping(threshold))
    link.a.grad = numpy.array(grads[0], dtype)
    link.b.grad = numpy.array(grads[1], dtype)
    opt.update()
    return link


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_rescales_to_threshold_when_norm_exceeds_it(dtype):
    # Global norm of (3, 0, 4) is 5; clipped to 2.5 the grads halve.
    link = _run(2.5, ([3.0, 0.0], [[4.0]]), dtype)
    numpy.testing.assert_allclose(link.a.array, [-1.5, 0.0], rtol=1e-3)
    numpy.testing.assert_allclose(link.b.array, [[-2.0]], rtol=1e-3)
    assert link.a.dtype == dtype


def test_leaves_small_grads_unchanged():
    link = _run(5.0, ([3.0, 0.0], [[4.0]]))
    numpy.testing.assert_array_equal(link.a.array, [-3.0, 0.0])
    numpy.testing.assert_array_equal(link.b.array, [[-4.0]])


def test_zero_grads_and_attributes():
    link = _run(1.0, ([0.0, 0.0], [[0.0]]))
    numpy.testing.assert_array_equal(link.a.array, [0.0, 0.0])
    hook = optimizer_hooks.GradientClipping(1.0)
    assert (hook.name, hook.timing, hook.call_for_each_param) == (
        'GradientClipping',
        'pre',
        False,
    )
    assert hook.threshold == 1.0
