"""The InvalidType family: a type check's failure that is also the type
Chainer 7.8.1 raises on the same input (its code fails there)."""

import pickle

import numpy
import pytest

import chainerlite.functions as F
from chainerlite.utils import type_check

AXIS_ERROR = numpy.exceptions.AxisError


@pytest.mark.parametrize(
    'error',
    [ValueError, TypeError, IndexError, AXIS_ERROR, AssertionError, RuntimeError],
)
def test_invalid_as_raises_both_types_and_keeps_the_message(error):
    with pytest.raises(error) as info:
        with type_check.invalid_as(error):
            raise type_check.InvalidType('x.ndim == 2', '1 != 2')
    e = info.value
    assert isinstance(e, type_check.InvalidType)
    assert str(e) == 'Expect: x.ndim == 2\nActual: 1 != 2'
    assert (e.expect, e.actual) == ('x.ndim == 2', '1 != 2')
    copy = pickle.loads(pickle.dumps(e))
    assert type(copy) is type(e) and str(copy) == str(e)
    assert type(e).__name__ in repr(e)


def test_invalid_as_leaves_other_exceptions_and_success_alone():
    with type_check.invalid_as(ValueError):
        pass
    with pytest.raises(KeyError):
        with type_check.invalid_as(ValueError):
            raise KeyError('k')


@pytest.mark.parametrize(
    ('call', 'error'),
    [
        (lambda: F.softmax(numpy.ones(3, numpy.float32), axis=1), RuntimeError),
        (lambda: F.log_softmax(numpy.ones(3, numpy.int32)), RuntimeError),
        (lambda: F.swapaxes(numpy.ones(3, numpy.float32), 0, 2), AXIS_ERROR),
        (lambda: F.transpose(numpy.ones((2, 3), numpy.float32), (0,)), ValueError),
        (lambda: F.transpose(numpy.ones((2, 3), numpy.float32), (0, 2)), AXIS_ERROR),
        (
            lambda: F.softmax_cross_entropy(
                numpy.ones((2, 3), numpy.float32), numpy.zeros(3, numpy.int32)
            ),
            RuntimeError,
        ),
    ],
)
def test_functions_raise_chainers_type_and_invalid_type(call, error):
    # the types recorded from Chainer 7.8.1 on the same calls
    with pytest.raises(error) as info:
        call()
    assert isinstance(info.value, type_check.InvalidType)


def test_an_index_error_of_the_light_check_reaches_the_caller():
    # Chainer 7.8.1 reruns its type check for a message only after an
    # InvalidType: reading ``shape[1]`` of a 0-d array raises IndexError
    with pytest.raises(IndexError):
        F.softmax_cross_entropy(
            numpy.ones((), numpy.float32), numpy.zeros(2, numpy.int32)
        )


def test_transpose_takes_one_int_axis_as_numpy():
    assert F.transpose(numpy.ones(3, numpy.float32), 0).shape == (3,)
