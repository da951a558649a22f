"""Facts the core keeps per class follow the class as it is now.

One record per class (``_core/facts``), found by the class's version tag:
a method replaced on a class at run time (``mock.patch.object``) takes
effect on the next op, and the old behaviour comes back after the patch.
"""

from unittest import mock

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite._core import ops_nn


class Double(chainerlite.FunctionNode):
    def forward(self, inputs):
        return (inputs[0] * 2,)

    def backward(self, indexes, grad_outputs):
        return (grad_outputs[0] * 2,)


class MyReLU(ops_nn.ReLU):
    pass


def _grad(node_class, *, double=False):
    x = chainerlite.Variable(np.array([1.0, -2.0, 3.0], np.float32))
    (y,) = node_class().apply((x,))
    y.grad = np.ones(3, np.float32)
    y.backward(enable_double_backprop=double)
    return x.grad.tolist()


def _times_three(self, indexes, grad_outputs):
    return (grad_outputs[0] * 3,)


@pytest.mark.parametrize('double', [False, True])
def test_backward_patched_on_a_python_node_takes_effect_at_once(double):
    assert _grad(Double, double=double) == [2, 2, 2]
    with mock.patch.object(Double, 'backward', _times_three):
        assert _grad(Double, double=double) == [3, 3, 3]
    assert _grad(Double, double=double) == [2, 2, 2]


@pytest.mark.parametrize('double', [False, True])
def test_backward_patched_on_a_compiled_nodes_subclass_takes_effect(double):
    # MyReLU inherits compiled grads (run on arrays in a plain pass) until
    # a backward of its own is patched in
    assert _grad(MyReLU, double=double) == [1, 0, 1]
    with mock.patch.object(MyReLU, 'backward', _times_three, create=True):
        assert _grad(MyReLU, double=double) == [3, 3, 3]
    assert _grad(MyReLU, double=double) == [1, 0, 1]


def test_backward_accumulate_added_on_a_class_is_used():
    calls = []

    def accumulate(self, indexes, grad_outputs, grad_inputs):
        calls.append(grad_inputs)
        return (grad_outputs[0] * 2,)

    with mock.patch.object(Double, 'backward_accumulate', accumulate, create=True):
        assert _grad(Double) == [2, 2, 2]
    assert len(calls) == 1
    assert _grad(Double) == [2, 2, 2]
    assert len(calls) == 1


def test_hook_callback_replaced_on_its_class_is_called_at_once():
    class Watch(chainerlite.FunctionHook):
        name = 'watch'

    seen = []
    x = chainerlite.Variable(np.ones(2, np.float32))
    with Watch():
        F.relu(x)
        with mock.patch.object(
            Watch, 'forward_preprocess', lambda self, f, i: seen.append(f.label)
        ):
            F.relu(x)
        F.relu(x)
    assert seen == ['ReLU']
