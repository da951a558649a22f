import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.utils import type_check


@pytest.mark.parametrize(
    'in_shape, out_shape, axes',
    [
        ((2, 3), (3,), (0,)),
        ((2, 3), (1, 3), (0,)),
        ((2, 3), (2, 1), (1,)),
        ((4, 2, 3, 5), (1, 3, 1), (0, 1, 3)),
        ((2, 3), (), (0, 1)),
    ],
)
def test_forward_backward_double_backward(in_shape, out_shape, axes):
    x = numpy.random.uniform(-1, 1, in_shape)
    y = F.sum_to(x, out_shape)
    assert y.shape == out_shape
    numpy.testing.assert_allclose(y.array, x.sum(axis=axes).reshape(out_shape))
    gy = numpy.random.uniform(-1, 1, out_shape)
    ggx = numpy.random.uniform(-1, 1, in_shape)

    def f(x):
        return F.sum_to(x, out_shape)

    gradient_check.check_backward(f, x, gy)
    gradient_check.check_double_backward(f, x, gy, ggx)


def test_same_shape_returns_input_variable():
    x = chainerlite.Variable(numpy.zeros((2, 3), numpy.float32))
    assert F.sum_to(x, (2, 3)) is x


@pytest.mark.parametrize(
    'in_shape, out_shape', [((3,), (2, 3)), ((2, 3), (2,)), ((2, 3), (4, 3))]
)
def test_invalid_shapes(in_shape, out_shape):
    with pytest.raises(type_check.InvalidType, match='SumTo'):
        F.sum_to(numpy.zeros(in_shape, numpy.float32), out_shape)


@pytest.mark.parametrize(
    'x_shape, shape, error',
    [
        # Chainer 7.8.1 sums over an axis that x lacks: AxisError
        ((), (1,), numpy.exceptions.AxisError),
        ((3,), (1, 1, 3), numpy.exceptions.AxisError),
        # a 0-d x and no axis to sum: Chainer fails on a NumPy scalar
        ((), (2,), TypeError),
    ],
)
def test_fewer_axes_than_shape_raise_chainers_type(x_shape, shape, error):
    x = numpy.zeros(x_shape, numpy.float32)
    with pytest.raises(error, match='ndim') as info:
        F.sum_to(x, shape)
    assert isinstance(info.value, type_check.InvalidType)
