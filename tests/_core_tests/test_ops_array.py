"""The compiled Sum, Reshape and BroadcastTo (chainerlite._core.ops_array).

Their C view and checks against NumPy and the type checks they stand for;
gradient checks and the hooks' view of F.sum's backward are in the tests of
the functions (math_tests/test_sum.py, array_tests/, test_nested_grad_calls).
"""

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite._core import ops_array
from chainerlite.utils import type_check

BASE = numpy.arange(6, dtype=numpy.float32)


@pytest.mark.parametrize(
    'x, shape',
    [
        (BASE[:3], (2, 3)),
        (BASE.reshape(2, 3)[:, :1], (2, 5)),  # not C-contiguous: NumPy's
        (BASE.reshape(1, 6), (0, 6)),
        (BASE.reshape(6, 1), (3, 6, 4)),
        (numpy.full((), 2.5, numpy.float16), (2, 2)),
        (numpy.arange(4, dtype=numpy.complex64).reshape(4, 1), (4, 3)),
    ],
)
def test_view_is_numpy_broadcast_to(x, shape):
    y = ops_array.broadcast_view(x, shape)
    expected = numpy.broadcast_to(x, shape)
    assert y.shape == expected.shape and y.dtype == x.dtype
    assert y.tobytes() == expected.tobytes()
    assert not y.flags.writeable
    assert y.flags.c_contiguous == expected.flags.c_contiguous
    if y.size:
        assert y.base is x or y.base is expected.base


@pytest.mark.parametrize(
    'shape, error',
    [
        ((2, 4), ValueError),  # 3 does not broadcast to 4
        ((3,), None),
        ((), ValueError),  # fewer axes than x
        ((-1, 3), ValueError),
        ((2**62, 3), ValueError),  # too big, even as a view
        ((2**70, 3), ValueError),  # NumPy's errors, as Chainer gives
        (('a', 3), TypeError),
    ],
)
def test_view_refuses_what_numpy_refuses(shape, error):
    x = BASE[:3]
    if error is None:
        assert ops_array.broadcast_view(x, shape).tobytes() == x.tobytes()
        return
    with pytest.raises(error):
        ops_array.broadcast_view(x, shape)


def test_view_keeps_its_input_alive():
    y = ops_array.broadcast_view(numpy.arange(3, dtype=numpy.float64), (1000, 3))
    del_ = [numpy.zeros(3) for _ in range(100)]  # reuse freed memory
    assert y[999].tolist() == [0.0, 1.0, 2.0] and del_


@pytest.mark.parametrize(
    'call, message',
    [
        (lambda: F.sum(numpy.zeros((2, 3), numpy.float32), axis=2), 'Sum'),
        (lambda: F.sum(numpy.zeros(3, numpy.int32)), 'Sum'),
        (lambda: F.reshape(numpy.zeros(6, numpy.float32), (4, 2)), 'Reshape'),
        (lambda: F.reshape(numpy.zeros(6, numpy.float32), (4, -1)), 'Reshape'),
        (lambda: F.broadcast_to(numpy.zeros(3, numpy.float32), (2, 4)), 'BroadcastTo'),
        # sizes beyond Py_ssize_t: the check, not an OverflowError
        (lambda: F.sum(numpy.zeros(3, numpy.float32), axis=2**70), 'Sum'),
        (lambda: F.sum(numpy.zeros(3, numpy.float32), axis=-(2**70)), 'Sum'),
        (lambda: F.reshape(numpy.zeros(6, numpy.float32), (2**70,)), 'Reshape'),
        (
            lambda: F.broadcast_to(numpy.zeros(3, numpy.float32), (2, 2**70)),
            'BroadcastTo',
        ),
    ],
)
def test_invalid_input_gets_the_type_check(call, message):
    with pytest.raises(type_check.InvalidType, match=message):
        call()


def test_arguments_are_checked_when_made():
    with pytest.raises(ValueError, match='one unknown dimension'):
        ops_array.Reshape((-1, -1))
    with pytest.raises(ValueError, match='duplicate value in axis'):
        F.sum(numpy.zeros((2, 2), numpy.float32), axis=(0, 0))
    with pytest.raises(TypeError, match='None, int or tuple of int'):
        F.sum(numpy.zeros((2, 2), numpy.float32), axis=[0])


@pytest.mark.parametrize('axis', [None, 0, 1, -1, (0, 2), ()])
@pytest.mark.parametrize('keepdims', [False, True])
def test_sum_and_its_gradient(axis, keepdims):
    x = chainerlite.Variable(numpy.arange(24, dtype=numpy.float32).reshape(2, 3, 4))
    y = F.sum(x, axis=axis, keepdims=keepdims)
    expected = x.array.sum(axis=axis, keepdims=keepdims)
    assert y.array.tobytes() == expected.tobytes() and y.shape == expected.shape
    gy = (numpy.arange(y.size, dtype=numpy.float32) + 1).reshape(y.shape)
    y.grad = gy
    y.backward()
    g = gy if keepdims or axis is None else numpy.expand_dims(gy, axis)
    assert x.grad.tobytes() == numpy.broadcast_to(g, x.shape).tobytes()
    if axis != ():  # () reshapes and broadcasts nothing
        assert not x.grad.flags.writeable  # Chainer's read-only broadcast


@pytest.mark.parametrize('shape', [(-1, -1), (-2, -3), (-1, 2, -5)])
def test_two_unknown_lengths_are_also_an_assertion_error(shape):
    # any negative length is an unknown one; Chainer 7.8.1 asserts one
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(AssertionError, match='one unknown dimension') as info:
        F.reshape(x, shape)
    assert isinstance(info.value, ValueError)
    with pytest.raises(ValueError, match='one unknown dimension'):
        chainerlite.Variable(x).reshape(*shape)


@pytest.mark.parametrize(
    'shape, expect', [((-2, 2), (3, 2)), ((2, -7), (2, 3)), ((-3,), (6,))]
)
def test_any_negative_length_is_the_unknown_one(shape, expect):
    # NumPy 1's rule, which Chainer 7.8.1 keeps on any NumPy
    x = chainerlite.Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))
    y = F.reshape(x, shape)
    assert y.shape == expect
    numpy.testing.assert_array_equal(y.array.ravel(), numpy.arange(6))
    y.grad = numpy.ones(expect, numpy.float32)
    y.backward()
    assert x.grad.shape == (2, 3)
    with pytest.raises(type_check.InvalidType, match='Reshape'):
        F.reshape(x, (-2, 4))
