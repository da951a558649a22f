"""_core.substitute_forward: a forward pre-hook links an earlier node and its
outputs in place of running the forward of the node being applied."""

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import _core
from chainerlite.functions.math.matmul import MatMul


class _Substitute(chainerlite.FunctionHook):
    name = 'Substitute'

    def __init__(self, node, outputs):
        self.node = node
        self.outputs = outputs
        self.ran = []
        self.seen = []

    def forward_preprocess(self, function, in_data):
        self.seen.append(function)
        _core.substitute_forward(self.node, self.outputs)

    def forward_postprocess(self, function, in_data):
        self.ran.append(function)


_APPLIES = [lambda a: F.tanh(a), lambda a: F.matmul(a, a)]


@pytest.mark.parametrize('apply', _APPLIES, ids=['compiled', 'python'])
def test_the_forward_does_not_run(apply):
    a = numpy.arange(4.0).reshape(2, 2) / 4
    node = apply(chainerlite.Variable(a)).creator
    given = numpy.full((2, 2), 7.0)  # not what the forward computes
    hook = _Substitute(node, (given,))
    with hook:
        y = apply(chainerlite.Variable(a))
    assert y.creator is node
    # the post-hook sees the node the pre-hook saw (hooks that pair their
    # calls by node, such as TimerHook, close the call they opened)
    assert hook.ran == hook.seen and hook.ran[0] is not node
    numpy.testing.assert_array_equal(y.array, given)


@pytest.mark.parametrize('apply', _APPLIES, ids=['compiled', 'python'])
def test_backward_runs_the_earlier_node_on_the_new_inputs(apply):
    # what F.forget does: the earlier node ran on the same input values
    a = numpy.arange(4.0).reshape(2, 2) / 4
    earlier = apply(chainerlite.Variable(a))
    x = chainerlite.Variable(a.copy())
    with _Substitute(earlier.creator, (earlier.array,)):
        y = apply(x)
    F.sum(y * y).backward()
    expected = chainerlite.Variable(a.copy())
    z = apply(expected)
    F.sum(z * z).backward()
    numpy.testing.assert_array_equal(x.grad, expected.grad)


def test_a_node_of_another_class_is_refused():
    node = F.exp(chainerlite.Variable(numpy.ones(2))).creator
    with _Substitute(node, (numpy.ones(2),)):
        with pytest.raises(
            RuntimeError, match='a .*Exp was given in place of a .*Tanh'
        ):
            F.tanh(chainerlite.Variable(numpy.ones(2)))


@pytest.mark.parametrize(
    'node, outputs, message',
    [
        (None, (numpy.ones(1),), 'node must be a FunctionNode, not builtins.NoneType'),
        (MatMul(), [numpy.ones(1)], 'outputs must be a non-empty tuple'),
        (MatMul(), (), 'outputs must be a non-empty tuple'),
    ],
)
def test_bad_arguments(node, outputs, message):
    with pytest.raises(TypeError, match='substitute_forward: ' + message):
        _core.substitute_forward(node, outputs)
