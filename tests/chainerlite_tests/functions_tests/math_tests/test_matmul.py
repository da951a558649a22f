import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.utils import type_check


def _t(x, trans):
    return x.swapaxes(-1, -2) if trans and x.ndim > 1 else x


CASES = [
    # a shape, b shape, transa, transb
    ((3, 2), (2, 4), False, False),
    ((2, 3), (2, 4), True, False),
    ((3, 2), (4, 2), False, True),
    ((2, 3), (4, 2), True, True),
    ((2,), (2,), False, False),
    ((2,), (2,), True, True),
    ((2,), (2, 4), False, False),
    ((3, 2), (2,), False, False),
    ((2, 3), (2,), True, True),
    ((5, 3, 2), (5, 2, 4), False, False),
    ((5, 2, 3), (2, 4), True, False),
    ((3, 2), (6, 5, 4, 2), False, True),
    ((6, 1, 3, 2), (5, 2, 4), False, False),
    ((2,), (5, 2, 4), False, False),
    ((5, 3, 2), (2,), False, False),
]


@pytest.mark.parametrize('a_shape, b_shape, transa, transb', CASES)
def test_forward(a_shape, b_shape, transa, transb):
    a = numpy.random.uniform(-1, 1, a_shape).astype(numpy.float32)
    b = numpy.random.uniform(-1, 1, b_shape).astype(numpy.float32)
    y = F.matmul(a, b, transa=transa, transb=transb)
    expected = numpy.matmul(_t(a, transa), _t(b, transb))
    assert isinstance(y.array, numpy.ndarray)
    assert y.shape == expected.shape
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('a_shape, b_shape, transa, transb', CASES)
def test_backward_and_double_backward(a_shape, b_shape, transa, transb):
    a = numpy.random.uniform(-1, 1, a_shape)
    b = numpy.random.uniform(-1, 1, b_shape)
    y_shape = numpy.matmul(_t(a, transa), _t(b, transb)).shape
    gy = numpy.random.uniform(-1, 1, y_shape)
    gga = numpy.random.uniform(-1, 1, a_shape)
    ggb = numpy.random.uniform(-1, 1, b_shape)

    def f(a, b):
        return F.matmul(a, b, transa=transa, transb=transb)

    gradient_check.check_backward(f, (a, b), gy)
    gradient_check.check_double_backward(f, (a, b), gy, (gga, ggb))


def test_variable_matmul_operator():
    a = chainerlite.Variable(numpy.random.uniform(-1, 1, (2, 3)))
    b = chainerlite.Variable(numpy.random.uniform(-1, 1, (3, 4)))
    numpy.testing.assert_allclose((a @ b).array, a.array @ b.array)


@pytest.mark.parametrize(
    'a_shape, b_shape, transa, transb',
    [
        ((3, 2), (3, 4), False, False),
        ((3, 2), (2, 4), True, False),
        ((3, 2), (2, 4), False, True),
        ((3,), (2,), False, False),
        ((2, 3, 2), (4, 2, 3), False, False),
        ((), (2,), False, False),
    ],
)
def test_invalid_shapes(a_shape, b_shape, transa, transb):
    a = numpy.zeros(a_shape, numpy.float32)
    b = numpy.zeros(b_shape, numpy.float32)
    with pytest.raises(type_check.InvalidType, match='MatMul'):
        F.matmul(a, b, transa=transa, transb=transb)


@pytest.mark.parametrize(
    'a_dtype, b_dtype', [(numpy.int32, numpy.int32), (numpy.float32, numpy.int32)]
)
def test_invalid_dtypes(a_dtype, b_dtype):
    with pytest.raises(type_check.InvalidType):
        F.matmul(numpy.zeros((2, 2), a_dtype), numpy.zeros((2, 2), b_dtype))


@pytest.mark.parametrize(
    'a_dtype, b_dtype', [(numpy.float16, numpy.float32), (numpy.float64, numpy.float32)]
)
def test_mixed_float_dtypes_as_chainer(a_dtype, b_dtype):
    # Chainer 7.8.1 accepts a mix: NumPy's result dtype, each gradient in
    # its input's dtype (computed in the result's, then cast).
    a_array = numpy.arange(6).reshape(2, 3).astype(a_dtype)
    b_array = numpy.linspace(-1, 1, 6).reshape(3, 2).astype(b_dtype)
    a, b = chainerlite.Variable(a_array), chainerlite.Variable(b_array)
    y = F.matmul(a, b)
    out = numpy.result_type(a_dtype, b_dtype)
    assert y.dtype == out
    numpy.testing.assert_allclose(y.array, a_array.astype(out) @ b_array.astype(out))
    gy = numpy.ones((2, 2), out)
    y.grad = gy
    y.backward()
    assert a.grad.dtype == a_dtype and b.grad.dtype == b_dtype
    numpy.testing.assert_allclose(
        a.grad, (gy @ b_array.astype(out).T).astype(a_dtype), rtol=1e-3
    )
    numpy.testing.assert_allclose(
        b.grad, (a_array.astype(out).T @ gy).astype(b_dtype), rtol=1e-3
    )


@pytest.mark.parametrize(
    'a_shape, b_shape', [((2, 5, 3), (3, 4)), ((5, 3), (3,)), ((3,), (3, 4))]
)
@pytest.mark.parametrize('transc', [False, True])
@pytest.mark.parametrize('dtype', [None, numpy.float32])
def test_node_transc_and_dtype(a_shape, b_shape, transc, dtype):
    # Chainer 7.8.1's MatMul(transa, transb, transc, dtype): transc gives
    # each output matrix transposed, dtype casts the output; the gradients
    # are in the inputs' dtype.
    from chainerlite.functions.math.matmul import MatMul

    rng = numpy.random.RandomState(0)
    a = rng.uniform(-1, 1, a_shape)
    b = rng.uniform(-1, 1, b_shape)
    (y,) = MatMul(transc=transc, dtype=dtype).apply((a, b))
    expected = numpy.matmul(a, b)
    numpy.testing.assert_allclose(y.array, _t(expected, transc), rtol=1e-6)
    assert y.dtype == (dtype or numpy.float64)
    gy = rng.uniform(-1, 1, y.shape).astype(y.dtype)
    gradient_check.check_backward(
        lambda a, b: MatMul(transc=transc, dtype=dtype).apply((a, b)),
        (a, b),
        gy,
        dtype=numpy.float64,
        atol=1e-3,
        rtol=1e-3,
    )


def test_batch_matmul_0d_inputs_fail_the_rank_check():
    x = numpy.zeros((), numpy.float32)
    with (
        pytest.warns(DeprecationWarning),
        pytest.raises(type_check.InvalidType, match='ndim') as info,
    ):
        F.batch_matmul(x, x)
    assert not isinstance(info.value, IndexError)
