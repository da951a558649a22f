"""``type_check.only_kinds``: a dtype-kind-only check that can be skipped."""

import sys
from unittest import mock

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import function_node
from chainerlite.functions.activation import sigmoid
from chainerlite.utils import type_check


class Counting(function_node.FunctionNode):
    calls = 0

    @type_check.only_kinds('f')
    def check_type_forward(self, in_types):
        type(self).calls += 1
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        return (inputs[0] * 2,)


class StricterSubclass(Counting):
    def check_type_forward(self, in_types):
        type(self).calls += 1
        type_check.expect(in_types[0].dtype == numpy.float64)


@pytest.fixture(autouse=True)
def _reset_counts():
    Counting.calls = StricterSubclass.calls = 0


def _f32(*shape):
    return numpy.ones(shape or (2, 3), numpy.float32)


def test_matching_inputs_skip_the_full_check():
    (y,) = Counting().apply((_f32(),))
    numpy.testing.assert_array_equal(y.array, 2 * _f32())
    assert Counting.calls == 0


@pytest.mark.parametrize(
    'inputs',
    [
        (numpy.ones(3, numpy.int32),),  # wrong kind
        (_f32(), _f32()),  # wrong count
    ],
)
def test_other_inputs_get_the_full_check_and_its_error(inputs):
    with pytest.raises(type_check.InvalidType) as e:
        Counting().apply(inputs)
    assert Counting.calls >= 1
    assert 'Invalid operation is performed in: Counting' in str(e.value)


def test_a_subclass_with_its_own_check_is_checked_in_full():
    with pytest.raises(type_check.InvalidType):
        StricterSubclass().apply((_f32(),))
    assert StricterSubclass.calls >= 1


def test_kinds_must_be_a_string():
    with pytest.raises(TypeError):
        type_check.only_kinds(['f'])


def test_a_patched_check_is_seen():
    x = _f32()
    Counting().apply((x,))
    with mock.patch.object(Counting, 'check_type_forward') as patched:
        Counting().apply((x,))
    assert patched.call_count == 1
    Counting().apply((x,))  # the declared kinds count again
    assert Counting.calls == 0


def test_disabled_type_check_runs_no_check():
    with chainerlite.using_config('type_check', False):
        Counting().apply((numpy.ones(3, numpy.int32),))
    assert Counting.calls == 0


def test_library_function_still_rejects_integers_by_name():
    with pytest.raises(type_check.InvalidType) as e:
        F.tanh(numpy.arange(3))
    assert 'Tanh' in str(e.value)


# Constructor arguments of the library nodes that need some.
_ARGS = {'ClippedReLU': (1.0,), 'Clip': (-1.0, 1.0), 'Dropout': (0.5,), 'Pad': (1,)}


def _declaring_classes():
    for module in list(sys.modules.values()):
        if not getattr(module, '__name__', '').startswith('chainerlite.functions.'):
            continue
        for obj in vars(module).values():
            if (
                isinstance(obj, type)
                and issubclass(obj, function_node.FunctionNode)
                and getattr(obj.check_type_forward, '_type_check_kinds', None)
                is not None
                and not obj.__name__.startswith('_')
            ):
                yield obj


def test_library_declarations_match_their_checks():
    # Each library node that declares kinds accepts such inputs in its full
    # check and rejects the wrong kind and the wrong count.
    classes = set(_declaring_classes())
    assert sigmoid.Sigmoid in classes and len(classes) >= 20
    for cls in classes:
        assert cls.check_type_forward._type_check_kinds == 'f', cls
        node = cls(*_ARGS.get(cls.__name__, ()))
        node._check_data_type_forward((_f32(),))
        for bad in ((numpy.ones(3, numpy.int64),), (_f32(), _f32())):
            with pytest.raises(type_check.InvalidType):
                node._check_data_type_forward(bad)
