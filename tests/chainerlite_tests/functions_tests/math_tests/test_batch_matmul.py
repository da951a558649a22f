import warnings

import numpy
import pytest

import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.functions.math import matmul
from chainerlite.utils import type_check


def _batch(x):
    return x[..., None] if x.ndim == 2 else x


def _t(x, trans):
    return x.swapaxes(1, 2) if trans else x


CASES = [
    # a shape, b shape, transa, transb
    ((2, 3, 4), (2, 4, 5), False, False),
    ((2, 4, 3), (2, 5, 4), True, True),
    ((2, 3), (2, 3), True, False),
    ((2, 3), (2, 4), False, True),
]


def _call(a, b, transa, transb):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        return F.batch_matmul(a, b, transa=transa, transb=transb)


@pytest.mark.parametrize('a_shape, b_shape, transa, transb', CASES)
def test_forward_matches_numpy(a_shape, b_shape, transa, transb):
    a = numpy.random.uniform(-1, 1, a_shape).astype(numpy.float32)
    b = numpy.random.uniform(-1, 1, b_shape).astype(numpy.float32)
    y = _call(a, b, transa, transb)
    expected = numpy.einsum(
        'nij,njk->nik', _t(_batch(a), transa), _t(_batch(b), transb)
    )
    assert isinstance(y.creator, matmul.BatchMatMul)
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('a_shape, b_shape, transa, transb', CASES)
def test_backward_and_double_backward(a_shape, b_shape, transa, transb):
    a = numpy.random.uniform(-1, 1, a_shape)
    b = numpy.random.uniform(-1, 1, b_shape)
    y_shape = numpy.einsum(
        'nij,njk->nik', _t(_batch(a), transa), _t(_batch(b), transb)
    ).shape
    gy = numpy.random.uniform(-1, 1, y_shape)

    def f(a, b):
        return _call(a, b, transa, transb)

    gradient_check.check_backward(f, (a, b), gy)
    gradient_check.check_double_backward(
        f,
        (a, b),
        gy,
        (numpy.random.uniform(-1, 1, a_shape), numpy.random.uniform(-1, 1, b_shape)),
    )


def test_warns_deprecation():
    a = numpy.ones((2, 3, 3), numpy.float32)
    with pytest.warns(DeprecationWarning, match='batch_matmul'):
        F.batch_matmul(a, a)


@pytest.mark.parametrize(
    'a_shape, b_shape',
    [((2, 3, 4), (2, 3, 4)), ((3,), (3,)), ((2, 3, 4, 5), (2, 5, 4)), ((2, 3), (3, 3))],
)
def test_invalid_shapes(a_shape, b_shape):
    a = numpy.ones(a_shape, numpy.float32)
    b = numpy.ones(b_shape, numpy.float32)
    with pytest.raises(type_check.InvalidType, match='BatchMatMul'):
        _call(a, b, False, False)
