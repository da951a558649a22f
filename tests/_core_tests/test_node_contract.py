"""Which backward of a node the compiled backprop runs.

``backward_accumulate`` when a class overrides it (as in Chainer), else
``backward``: on Variables with backprop off (compute-only) in a pass
without double backprop, with backprop on otherwise.
"""

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite._core import ops_math


def _var(*values):
    return chainerlite.Variable(np.array(values, np.float32))


class Scale(chainerlite.FunctionNode):
    """y = 3 x, recording which backward ran."""

    def __init__(self, calls):
        self.calls = calls

    def forward(self, inputs):
        return (inputs[0] * np.float32(3),)

    def backward(self, indexes, grad_outputs):
        self.calls.append('backward')
        return (grad_outputs[0] * 3.0,)


class ScaleAccumulate(Scale):
    def backward_accumulate(self, indexes, grad_outputs, grad_inputs):
        self.calls.append(('accumulate', grad_inputs[0] is None))
        (gx,) = self.backward(indexes, grad_outputs)
        (g,) = grad_inputs
        return (gx if g is None else gx + g,)


class ScaleRecordingMode(Scale):
    def backward(self, indexes, grad_outputs):
        self.calls.append(chainerlite.config.enable_backprop)
        return (grad_outputs[0] * 3.0,)


@pytest.mark.parametrize('double', [False, True])
def test_backward_accumulate_override_is_called(double):
    calls = []
    x = _var(1, 2)
    # x gets a gradient from ``x * 2.0`` before Scale's backward runs
    # (higher rank first), which backward_accumulate receives and extends
    y = ScaleAccumulate(calls).apply((x,))[0] * 1.0 + x * 2.0
    F.sum(y).backward(enable_double_backprop=double)
    assert calls == [('accumulate', False), 'backward']
    np.testing.assert_allclose(x.grad, [5, 5])


def test_backward_accumulate_receives_a_leafs_old_gradient():
    # As in Chainer 7.8.1: the grad a leaf already holds is the first
    # gradient backward_accumulate extends.
    calls = []
    x = _var(1, 2)
    x.grad = np.array([10, 10], np.float32)
    y = ScaleAccumulate(calls).apply((x,))[0]
    F.sum(y).backward()
    assert calls == [('accumulate', False), 'backward']
    np.testing.assert_allclose(x.grad, [13, 13])  # added to the old grad


def test_backward_accumulate_in_grad():
    calls = []
    x = _var(1, 2)
    y = ScaleAccumulate(calls).apply((x,))[0] + x
    (gx,) = chainerlite.grad([F.sum(y)], [x])
    np.testing.assert_allclose(gx.array, [4, 4])
    assert calls[0] == ('accumulate', False)


@pytest.mark.parametrize('double', [False, True])
def test_backward_runs_compute_only_without_double_backprop(double):
    calls = []
    x = _var(1, 2)
    (y,) = ScaleRecordingMode(calls).apply((x,))
    F.sum(y).backward(enable_double_backprop=double)
    assert calls == [double]
    np.testing.assert_allclose(x.grad, [3, 3])
    assert (x.grad_var.creator is None) is not double


def test_subclass_of_compiled_node_that_overrides_backward():
    class Doubled(ops_math.MulConstant):
        def backward(self, indexes, grad_outputs):
            return (grad_outputs[0] * (2 * self.value),)

    x = _var(1, 2)
    F.sum(Doubled(3.0).apply((x,))[0]).backward()
    np.testing.assert_allclose(x.grad, [6, 6])


def test_compiled_node_applied_directly_retains_what_it_declares():
    x, y = _var(1, 2), _var(3, 4)
    node = ops_math.Mul()
    (z,) = node.apply((x, y))
    assert node._input_indexes_to_retain == (0, 1)
    F.sum(z).backward()
    np.testing.assert_allclose(x.grad, [3, 4])
    np.testing.assert_allclose(y.grad, [1, 2])


def test_operator_node_retains_only_what_backward_reads():
    x, y = _var(1, 2), _var(3, 4)
    assert (x + y).creator.inputs[0].data is None
    assert (x * y).creator.inputs[0].data is x.array
