"""_core.retained_indexes: what a node retains for its backward, known once
its forward ran, with or without backprop mode."""

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import _core

_A = numpy.arange(6.0).reshape(2, 3)
_W = numpy.ones((4, 3))


@pytest.mark.parametrize('backprop', [True, False])
@pytest.mark.parametrize(
    'apply, expected',
    [
        (lambda: F.relu(_A), (None, (0,))),  # compiled, its output
        (lambda: F.linear(_A, _W), ((0, 1), None)),  # compiled, its inputs
        (lambda: chainerlite.Variable(_A) + _A, (None, None)),  # compiled, nothing
        (lambda: F.matmul(_A, _W.T), ((0, 1), None)),  # Python, its inputs
        (lambda: F.softmax(_A), (None, (0,))),  # Python, its output
    ],
    ids=['relu', 'linear', 'add', 'matmul', 'softmax'],
)
def test_indexes_of_a_node(apply, expected, backprop):
    seen = []

    class Hook(chainerlite.FunctionHook):
        def forward_postprocess(self, function, in_data):
            seen.append(_core.retained_indexes(function))

    with chainerlite.using_config('enable_backprop', backprop), Hook():
        apply()
    assert seen == [expected]


def test_a_non_node_is_refused():
    with pytest.raises(TypeError, match='retained_indexes: node must be a '):
        _core.retained_indexes(object())
