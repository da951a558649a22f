import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.utils import type_check


@pytest.mark.parametrize(
    'shape, axes',
    [
        ((2, 3), None),
        ((2, 3, 4), None),
        ((2, 3, 4), (1, 0, 2)),
        ((2, 3, 4), (2, 0, 1)),
        ((2, 3, 4), (-1, 0, -2)),
        ((3,), (0,)),
        ((), None),
    ],
)
def test_forward_backward_double_backward(shape, axes):
    x = numpy.random.uniform(-1, 1, shape)
    y = F.transpose(x, axes)
    expected = x.transpose(axes)
    assert y.shape == expected.shape
    numpy.testing.assert_array_equal(y.array, expected)
    gy = numpy.random.uniform(-1, 1, expected.shape)
    ggx = numpy.random.uniform(-1, 1, shape)

    def f(x):
        return F.transpose(x, axes)

    gradient_check.check_backward(f, x, gy)
    gradient_check.check_double_backward(f, x, gy, ggx)


def test_variable_transpose_and_T():
    x = chainerlite.Variable(numpy.zeros((2, 3, 4), numpy.float32))
    assert x.T.shape == (4, 3, 2)
    assert x.transpose(1, 2, 0).shape == (3, 4, 2)


@pytest.mark.parametrize('axes', [(0, 1), (0, 1, 3), (0, 1, -4)])
def test_invalid_axes(axes):
    with pytest.raises(type_check.InvalidType, match='Transpose'):
        F.transpose(numpy.zeros((2, 3, 4), numpy.float32), axes)
