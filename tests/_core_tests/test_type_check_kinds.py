"""``type_check.declare_kinds``: one statement of a dtype-kind contract.

The declaration is the check (names, count, kinds, with type_check's
messages) and the core reads it to let matching inputs skip the check,
for Python nodes and compiled ones alike.
"""

import sys
from unittest import mock

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import function_node
from chainerlite._core import facts, ops_nn
from chainerlite.functions.activation import sigmoid
from chainerlite.utils import type_check


class Twice(function_node.FunctionNode):
    check_type_forward = type_check.declare_kinds(x='f')

    def forward(self, inputs):
        return (inputs[0] * 2,)


class StricterSubclass(Twice):
    calls = 0

    def check_type_forward(self, in_types):
        type(self).calls += 1
        type_check.expect(in_types[0].dtype == numpy.float64)


def _f32(*shape):
    return numpy.ones(shape or (2, 3), numpy.float32)


@pytest.fixture
def full_checks():
    # counts the full checks of declared kinds (each names its inputs)
    with mock.patch.object(type_check, '_argname', wraps=type_check._argname) as m:
        yield m


def test_matching_inputs_skip_the_full_check(full_checks):
    (y,) = Twice().apply((_f32(),))
    numpy.testing.assert_array_equal(y.array, 2 * _f32())
    F.relu(_f32())  # a compiled node's declaration
    assert full_checks.call_count == 0


@pytest.mark.parametrize(
    'inputs, message',
    [
        (
            (numpy.ones(3, numpy.int32),),
            'Invalid operation is performed in: Twice (Forward)\n\n'
            'Expect: x.dtype.kind == f\nActual: i != f',
        ),
        # Chainer's message of a wrong count names no function
        ((_f32(), _f32()), 'Invalid number of arguments'),
    ],
)
def test_other_inputs_get_the_full_check_and_its_error(full_checks, inputs, message):
    with pytest.raises(type_check.InvalidType) as e:
        Twice().apply(inputs)
    assert full_checks.call_count >= 1
    assert str(e.value).strip() == message


def test_a_subclass_with_its_own_check_is_checked_in_full():
    StricterSubclass.calls = 0
    with pytest.raises(type_check.InvalidType):
        StricterSubclass().apply((_f32(),))
    assert StricterSubclass.calls >= 1


@pytest.mark.parametrize('kinds', [{}, {'x': 'ff'}, {'x': 1}, {'x': 'é'}])
def test_declaration_needs_one_kind_character_per_input(kinds):
    with pytest.raises(TypeError, match='declare_kinds'):
        type_check.declare_kinds(**kinds)


def test_declaration_of_several_inputs_checks_each_in_order():
    check = type_check.declare_kinds(x='f', n='i')
    assert (check.names, check.kinds) == (('x', 'n'), 'fi')
    assert repr(check) == "declare_kinds(x='f', n='i')"

    class Pair(function_node.FunctionNode):
        check_type_forward = check

        def forward(self, inputs):
            return (inputs[0] * inputs[1],)

    Pair().apply((_f32(3), numpy.arange(3)))
    with pytest.raises(type_check.InvalidType, match='n.dtype.kind == i'):
        Pair().apply((_f32(3), _f32(3)))


def test_a_check_patched_on_the_class_is_seen_at_once():
    x = _f32()
    Twice().apply((x,))
    with mock.patch.object(Twice, 'check_type_forward') as patched:
        Twice().apply((x,))
    assert patched.call_count == 1
    with mock.patch.object(type_check, '_argname') as argname:
        Twice().apply((x,))  # the declaration counts again
    assert argname.call_count == 0


def test_a_check_patched_on_a_compiled_nodes_subclass_is_seen_at_once():
    # (compiled classes themselves cannot be patched)
    class MyReLU(ops_nn.ReLU):
        pass

    calls = []
    x = _f32()
    MyReLU().apply((x,))
    patched = mock.patch.object(
        MyReLU, 'check_type_forward', lambda self, in_types: calls.append(1)
    )
    with patched:
        MyReLU().apply((x,))
    assert calls == [1]
    MyReLU().apply((x,))
    assert calls == [1]


def test_disabled_type_check_runs_no_check(full_checks):
    with chainerlite.using_config('type_check', False):
        Twice().apply((numpy.ones(3, numpy.int32),))
    assert full_checks.call_count == 0


def test_library_function_still_rejects_integers_by_name():
    for f, name in ((F.tanh, 'Tanh'), (F.sigmoid, 'Sigmoid'), (F.relu, 'ReLU')):
        with pytest.raises(type_check.InvalidType) as e:
            f(numpy.arange(3))
        assert name in str(e.value) and 'x.dtype.kind' in str(e.value)


# Constructor arguments of the library nodes that need some.
_ARGS = {
    'ClippedReLU': (1.0,),
    'Clip': (-1.0, 1.0),
    'Dropout': (0.5,),
    'Pad': (1,),
    'ReLUGrad': (None,),
    'MaximumGrad': (numpy.ones(3, numpy.float32), numpy.zeros(3, numpy.float32)),
    'MinimumGrad': (numpy.ones(3, numpy.float32), numpy.zeros(3, numpy.float32)),
    'ClipGrad': (numpy.ones(3, numpy.float32), -1.0, 1.0),
    'ClippedReLUGrad2': (numpy.ones(3, numpy.float32), 1.0),
    'ClippedReLUGrad3': (
        numpy.ones(3, numpy.float32),
        numpy.ones(3, numpy.float32),
        1.0,
    ),
    'ReLUGrad2': (numpy.ones(3, numpy.float32),),
}
# Bases whose subclasses supply what they compute (their subclasses are
# checked above).
_ABSTRACT = {'ElementwiseCompareGrad'}


def _declaring_classes():
    for module in list(sys.modules.values()):
        if not getattr(module, '__name__', '').startswith('chainerlite.functions.'):
            continue
        for obj in vars(module).values():
            if (
                isinstance(obj, type)
                and issubclass(obj, function_node.FunctionNode)
                and isinstance(obj.check_type_forward, facts.KindsCheck)
                and not obj.__name__.startswith('_')
                and obj.__name__ not in _ABSTRACT
            ):
                yield obj


def test_library_declarations_check_in_full():
    # Each library node that declares kinds accepts such inputs in its full
    # check and rejects the wrong kind and the wrong count.
    classes = set(_declaring_classes())
    assert sigmoid.Sigmoid in classes and len(classes) >= 20
    assert isinstance(ops_nn.ReLU.check_type_forward, facts.KindsCheck)
    for cls in classes:
        assert cls.check_type_forward.kinds == 'f', cls
        node = cls(*_ARGS.get(cls.__name__, ()))
        node._check_data_type_forward((_f32(),))
        for bad in ((numpy.ones(3, numpy.int64),), (_f32(), _f32())):
            with pytest.raises(type_check.InvalidType):
                node._check_data_type_forward(bad)
