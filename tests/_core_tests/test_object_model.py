"""The compiled classes take what Python code does to Chainer's classes.

Chainer's Variable, VariableNode and FunctionNode are plain Python classes:
code replaces their methods (tracing and export tools swap
``FunctionNode.apply`` for a while), patches methods of instances and adds
attributes. Here each kind of patch takes effect on the next op, and
removing it brings back the compiled path (the class's facts lose the flag
that sent the engine through Python).
"""

import copy
import pickle
import subprocess
import sys
import textwrap
from unittest import mock

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite._core import ops_math, ops_nn
from chainerlite._core.facts import class_flags
from chainerlite.configuration import GlobalConfig, LocalConfig
from chainerlite.function_node import FunctionNode
from chainerlite.variable import Variable, VariableNode


def _var(*values):
    return Variable(np.array(values, np.float32))


class Halve(FunctionNode):
    """A node written in Python (no backward_accumulate, no type check)."""

    def forward(self, inputs):
        return (inputs[0] / np.float32(2),)

    def backward(self, indexes, grad_outputs):
        return (grad_outputs[0] / 2,)


def _ops(x, W):
    # compiled ops through their C fast path, and a node written in Python
    return {
        'ReLU': lambda: F.relu(x),
        'MulConstant': lambda: x * 2.0,
        'Add': lambda: x + x,
        'Tanh': lambda: F.tanh(x),
        'LinearFunction': lambda: F.linear(x.reshape(1, 3), W),
        'Halve': lambda: Halve().apply((x,))[0],
    }


@pytest.mark.parametrize(
    'cls',
    [
        Variable,
        VariableNode,
        FunctionNode,
        ops_nn.ReLU,
        ops_math.Mul,
        ops_nn.LinearFunction,
        GlobalConfig,
        LocalConfig,
    ],
)
def test_class_attribute_set_read_and_deleted(cls):
    cls.chainerlite_test_attr = 7
    try:
        assert cls.chainerlite_test_attr == 7
        assert 'chainerlite_test_attr' in cls.__dict__
    finally:
        del cls.chainerlite_test_attr
    assert not hasattr(cls, 'chainerlite_test_attr')


def test_instances_see_class_attributes_at_once():
    x = _var(1, 2, 3)
    y = F.relu(x)
    with (
        mock.patch.object(Variable, 'colour', 'red', create=True),
        mock.patch.object(VariableNode, 'colour', 'blue', create=True),
        mock.patch.object(FunctionNode, 'colour', 'green', create=True),
    ):
        assert (x.colour, x.node.colour, y.creator.colour) == ('red', 'blue', 'green')
    assert not hasattr(x, 'colour') and not hasattr(y.creator, 'colour')


@pytest.mark.parametrize('op', sorted(_ops(_var(1), None)))
def test_apply_replaced_on_function_node_sees_every_op(op):
    x = _var(-1, 2, 3)
    W = Variable(np.ones((2, 3), np.float32))
    run = _ops(x, W)[op]
    expected = run().array
    seen = []
    original = FunctionNode.apply

    def apply(self, inputs):
        seen.append(type(self).__name__)
        return original(self, inputs)

    FunctionNode.apply = apply
    try:
        assert 'CALL_REPLACED' in class_flags(ops_nn.ReLU)
        y = run()
        F.sum(y).backward()
    finally:
        FunctionNode.apply = original
    np.testing.assert_array_equal(y.array, expected)
    assert op in seen
    assert 'CALL_REPLACED' not in class_flags(ops_nn.ReLU)
    del seen[:]
    run()
    assert seen == []


def test_grad_nodes_go_through_a_replaced_apply_in_backward():
    # as in Chainer, where a backward applies its grad nodes
    seen = []
    original = FunctionNode.apply

    def apply(self, inputs):
        seen.append(type(self).__name__)
        return original(self, inputs)

    x = _var(-1, 2, 3)
    with mock.patch.object(FunctionNode, 'apply', apply):
        F.sum(F.relu(x) * 3.0).backward()
    assert 'ReLUGrad' in seen and 'MulConstant' in seen
    np.testing.assert_array_equal(x.grad, [0, 3, 3])


def test_mock_replaces_apply_as_in_chainer():
    # a MagicMock is no method: it is called with the inputs only
    x = _var(1, 2)
    out = _var(5)
    with mock.patch.object(FunctionNode, 'apply', return_value=(out,)) as m:
        assert F.relu(x) is out
        assert (x * 2.0) is out
    assert m.call_count == 2
    assert m.call_args_list[0] == mock.call((x,))
    assert F.relu(x) is not out


def test_apply_wrapper_that_keeps_inputs_alive():
    # what onnx_chainer's RetainInputHook does: after the original apply,
    # it replaces the node's inputs by VariableNodes of Variables it keeps
    kept = []
    original = FunctionNode.apply

    def apply(self, inputs):
        ret = original(self, inputs)
        nodes = list(self.inputs)
        for i, node in enumerate(nodes):
            var = node.get_variable_or_none()
            if var is None:
                var = chainerlite.as_variable(inputs[i])
                nodes[i] = var.node
            kept.append(var)
        self.inputs = tuple(nodes)
        return ret

    with mock.patch.object(FunctionNode, 'apply', apply):
        y = F.relu(_var(-1, 2) * 2.0)
    x_of_relu = y.creator.inputs[0]
    assert x_of_relu.get_variable_or_none() is not None
    assert type(x_of_relu.creator) is ops_math.MulConstant


def test_forward_replaced_on_a_compiled_class():
    x = _var(-1, 2)

    def forward(self, inputs):
        return (inputs[0] * 0 + 7,)

    with mock.patch.object(ops_nn.ReLU, 'forward', forward):
        assert 'CALL_REPLACED' in class_flags(ops_nn.ReLU)
        assert F.relu(x).array.tolist() == [7, 7]
        assert F.tanh(x).array[0] != 7
    assert 'CALL_REPLACED' not in class_flags(ops_nn.ReLU)
    assert F.relu(x).array.tolist() == [0, 2]


def _times_five(self, indexes, grad_outputs):
    return tuple(grad_outputs[0] * 5 for _ in indexes)


@pytest.mark.parametrize('double', [False, True])
@pytest.mark.parametrize(
    'cls, run',
    [
        (ops_nn.ReLU, lambda x: F.relu(x)),
        (ops_math.MulConstant, lambda x: x * 2.0),
        (ops_nn.Tanh, lambda x: F.tanh(x)),
    ],
)
def test_backward_replaced_on_a_compiled_class(cls, run, double):
    def grad():
        x = _var(1, 2)
        F.sum(run(x)).backward(enable_double_backprop=double)
        return x.grad.tolist()

    before = grad()
    with mock.patch.object(cls, 'backward', _times_five):
        assert 'COMPILED_GRADS' not in class_flags(cls)
        assert grad() == [5, 5]
    assert 'COMPILED_GRADS' in class_flags(cls)
    assert grad() == before


def test_backward_accumulate_replaced_on_a_class():
    calls = []
    original = FunctionNode.backward_accumulate

    def accumulate(self, indexes, grad_outputs, grad_inputs):
        calls.append(type(self).__name__)
        return original(self, indexes, grad_outputs, grad_inputs)

    def grad():
        x = _var(1, -2)
        F.sum(Halve().apply((F.relu(x) * 3.0,))[0]).backward()
        return x.grad.tolist()

    # as in Chainer: on FunctionNode itself it is the base's, not called
    with mock.patch.object(FunctionNode, 'backward_accumulate', accumulate):
        assert grad() == [1.5, 0]
    assert calls == []
    with mock.patch.object(ops_nn.ReLU, 'backward_accumulate', accumulate):
        assert 'ACCUMULATES' in class_flags(ops_nn.ReLU)
        assert grad() == [1.5, 0]
    assert calls == ['ReLU']
    assert 'ACCUMULATES' not in class_flags(ops_nn.ReLU)


def test_check_type_forward_replaced_on_function_node():
    seen = []

    def check(self, in_types):
        seen.append(type(self).__name__)
        chainerlite.utils.type_check.expect(in_types[0].dtype.kind == 'f')

    with mock.patch.object(FunctionNode, 'check_type_forward', check):
        Halve().apply((_var(1),))
        assert seen == ['Halve']
        with pytest.raises(chainerlite.utils.type_check.InvalidType):
            Halve().apply((np.array([1], np.int32),))
    del seen[:]
    Halve().apply((np.array([1], np.int32),))
    assert seen == []


def test_variable_backward_and_operator_replaced():
    calls = []
    original = Variable.backward

    def backward(self, *args, **kwargs):
        calls.append(self.name)
        return original(self, *args, **kwargs)

    with (
        mock.patch.object(Variable, 'backward', backward),
        mock.patch.object(Variable, '__mul__', lambda self, other: 'mul'),
    ):
        x = _var(1, 2)
        assert x * 2 == 'mul'
        y = F.sum(x + x)
        y.name = 'loss'
        y.backward()
    assert calls == ['loss']
    np.testing.assert_array_equal(x.grad, [2, 2])
    assert (x * 2).array.tolist() == [2, 4]


def test_instance_method_patched_on_a_variable():
    x = _var(1, 2)
    y = F.sum(x * 3.0)
    calls = []
    y.backward = lambda: calls.append('patched')
    y.backward()
    assert calls == ['patched'] and x.grad is None
    del y.backward
    y.backward()
    np.testing.assert_array_equal(x.grad, [3, 3])


@pytest.mark.parametrize('double', [False, True])
@pytest.mark.parametrize(
    'make',
    [
        lambda x: F.relu(x),  # compiled, grads run on arrays
        lambda x: Halve().apply((x,))[0],
    ],
)
def test_instance_backward_patched_on_a_node(make, double):
    x = _var(1, 2)
    y = make(x)
    y.creator.backward = _times_five.__get__(y.creator)
    F.sum(y).backward(enable_double_backprop=double)
    assert x.grad.tolist() == [5, 5]


@pytest.mark.parametrize(
    'make', [lambda x: F.relu(x), lambda x: Halve().apply((x,))[0]]
)
def test_instance_backward_accumulate_patched_on_a_node(make):
    x = _var(1, 2)
    y = make(x)
    calls = []

    def accumulate(indexes, grad_outputs, grad_inputs):
        calls.append(grad_inputs)
        return (grad_outputs[0] * 4,)

    y.creator.backward_accumulate = accumulate
    F.sum(y).backward()
    assert len(calls) == 1 and x.grad.tolist() == [4, 4]


def test_instance_forward_patched_on_a_compiled_node():
    node = ops_nn.ReLU()
    node.forward = lambda inputs: (inputs[0] + 10,)
    (y,) = node.apply((_var(-1, 2),))
    assert y.array.tolist() == [9, 12]
    del node.forward
    (y,) = node.apply((_var(-1, 2),))
    assert y.array.tolist() == [0, 2]


def test_attributes_added_to_instances():
    x = _var(1)
    y = F.relu(x)
    x.tag = 'x'
    x.node.tag = 'node'
    y.creator.tag = 'relu'
    assert (x.tag, x.node.tag, y.creator.tag) == ('x', 'node', 'relu')
    del x.node.tag
    with pytest.raises(AttributeError, match='tag'):
        x.node.tag


def test_instance_attribute_does_not_hide_a_property():
    x = _var(1, 2)
    with pytest.raises(AttributeError):
        x.shape = (5,)
    with pytest.raises(AttributeError):
        x.node.shape = (5,)
    x.array = np.zeros(2, np.float32)  # a property with a setter
    assert x.array.tolist() == [0, 0] and x.shape == (2,)


def test_a_class_patched_more_often_than_it_has_version_tags():
    # CPython 3.12+ gives a class at most 1000 version tags, after which
    # its facts are recomputed on every op: still right. In a subprocess, so
    # that the classes of this one keep their tags.
    code = textwrap.dedent("""
        import numpy as np
        import chainerlite.functions as F
        from chainerlite import Variable
        from chainerlite.function_node import FunctionNode

        original = FunctionNode.apply
        calls = []

        def apply(self, inputs):
            calls.append(type(self).__name__)
            return original(self, inputs)

        x = Variable(np.array([-1, 2], np.float32))
        for _ in range(700):
            FunctionNode.apply = apply
            assert F.relu(x).array.tolist() == [0, 2]
            FunctionNode.apply = original
            F.relu(x)
        assert calls == ['ReLU'] * 700, len(calls)
        F.sum(F.relu(x)).backward()
        assert x.grad.tolist() == [0, 1]
    """)
    proc = subprocess.run(
        [sys.executable, '-c', code], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr


class Quiet(chainerlite.FunctionHook):
    name = 'quiet'


class Scale(FunctionNode):
    def __init__(self, factor):
        self.factor = factor

    def forward(self, inputs):
        return (inputs[0] * self.factor,)


def _pickled(obj):
    return pickle.loads(pickle.dumps(obj))


@pytest.mark.parametrize('dup', [copy.copy, copy.deepcopy, _pickled])
def test_a_node_not_yet_applied_is_copied(dup):
    node = Scale(np.float32(3))
    node.add_hook(Quiet())
    twin = dup(node)
    assert type(twin) is Scale and twin.factor == 3
    assert list(twin.local_function_hooks) == ['quiet']
    assert twin.inputs is None and twin.outputs is None
    (y,) = twin.apply((_var(1, 2),))
    assert y.array.tolist() == [3, 6] and node.inputs is None
    relu = dup(ops_nn.ReLU())
    assert F.sum(relu.apply((_var(-1, 2),))[0]).array == 2


@pytest.mark.parametrize('dup', [copy.copy, copy.deepcopy, _pickled])
def test_copying_a_node_that_cannot_be_copied_is_refused(dup):
    x = _var(1)
    with pytest.raises(TypeError, match='applied cannot be copied'):
        dup((x * x).creator)
    with pytest.raises(TypeError, match='compiled MulConstant holds fields'):
        dup(ops_math.MulConstant(2.0))
