"""_backprop_utils.backprop_step and _reduce."""

import numpy
import pytest

import chainerlite
from chainerlite import _backprop_utils


class Scale(chainerlite.FunctionNode):
    # y = 2 * x0 + 3 * x1
    def forward(self, inputs):
        return (2 * inputs[0] + 3 * inputs[1],)

    def backward(self, indexes, grad_outputs):
        (gy,) = grad_outputs
        return 2 * gy, 3 * gy


class ScaleAccumulate(Scale):
    def backward_accumulate(self, indexes, grad_outputs, grad_inputs):
        gxs = self.backward(indexes, grad_outputs)
        gxs = [gxs[i] for i in indexes]
        return tuple(gx if g is None else gx + g for gx, g in zip(gxs, grad_inputs))


def _step(cls, lazy):
    x0 = chainerlite.Variable(numpy.ones(2, numpy.float32))
    x1 = chainerlite.Variable(numpy.ones(2, numpy.float32))
    f = cls()
    f.apply((x0, x1))
    before = chainerlite.Variable(numpy.full(2, 10, numpy.float32))
    grads = {x0.node: [before], x1.node: []}
    with chainerlite.using_config('lazy_grad_sum', lazy):
        _backprop_utils.backprop_step(
            f, (0, 1), (numpy.ones(2, numpy.float32),), grads, True
        )
    return grads[x0.node], grads[x1.node]


@pytest.mark.parametrize('cls', [Scale, ScaleAccumulate])
@pytest.mark.parametrize('lazy', [False, True])
def test_backprop_step_gathers_gradients(cls, lazy):
    g0, g1 = _step(cls, lazy)
    if lazy and cls is Scale:
        assert len(g0) == 2
    else:
        assert len(g0) == 1
    numpy.testing.assert_array_equal(_backprop_utils._reduce(g0).array, [12, 12])
    numpy.testing.assert_array_equal(_backprop_utils._reduce(g1).array, [3, 3])


def test_reduce_of_nothing_is_none():
    assert _backprop_utils._reduce([]) is None


def test_debug_mode_detects_nan():
    x = chainerlite.Variable(numpy.ones(2, numpy.float32))
    f = Scale()
    f.apply((x, x))
    with pytest.raises(RuntimeError, match='NaN'):
        _backprop_utils.backprop_step(
            f, (0,), (numpy.full(2, numpy.nan, numpy.float32),), {x.node: []}, True
        )


def test_wrong_number_of_gradients():
    class Bad(Scale):
        def backward(self, indexes, grad_outputs):
            return grad_outputs * 3

    x = chainerlite.Variable(numpy.ones(2, numpy.float32))
    f = Bad()
    f.apply((x, x))
    with pytest.raises(ValueError, match='number of gradients'):
        _backprop_utils.backprop_step(
            f, (0,), (numpy.ones(2, numpy.float32),), {x.node: []}, False
        )
