import numpy
import pytest

import chainerlite

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _tolerances(test):
    if test.dtype == numpy.float16:
        test.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 5e-3,
            'rtol': 1e-2,
        }
        test.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 5e-3,
            'rtol': 1e-2,
        }
    elif test.dtype == numpy.float32:
        test.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-4,
            'rtol': 1e-3,
        }
        test.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-4,
            'rtol': 1e-3,
        }


def depth2space_reference(x, r):
    b, rrc, h, w = x.shape
    c = rrc // (r * r)
    y = numpy.empty((b, c, h * r, w * r), x.dtype)
    for i in range(r):
        for j in range(r):
            for k in range(c):
                y[:, k, i::r, j::r] = x[:, (i * r + j) * c + k]
    return y


@testing.parameterize(
    *testing.product(
        {
            'shape_r': [((2, 8, 2, 3), 2), ((1, 9, 2, 1), 3), ((1, 2, 2, 2), 1)],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDepth2Space(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        shape, _ = self.shape_r
        return (numpy.random.uniform(-1, 1, shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.depth2space(x, self.shape_r[1]),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (depth2space_reference(x, self.shape_r[1]),)


@pytest.mark.parametrize(
    'x',
    [
        numpy.zeros((1, 6, 2, 2), numpy.float32),
        numpy.zeros((8, 2, 2), numpy.float32),
        numpy.zeros((1, 8, 2, 2), numpy.int32),
    ],
)
def test_invalid_inputs(x):
    with pytest.raises(type_check.InvalidType, match='Depth2Space'):
        F.depth2space(x, 2)


# The types Chainer 7.8.1 fails with (recorded from it): the rank first
# (InvalidType), then r: TypeError for a non-integer, ZeroDivisionError
# for 0, ValueError for a negative one or a shape r does not divide.
@pytest.mark.parametrize(
    'func, x',
    [
        (F.depth2space, numpy.ones((1, 4, 2, 2), numpy.float16)),
        (F.space2depth, numpy.ones((1, 1, 4, 4), numpy.float16)),
    ],
)
@pytest.mark.parametrize(
    'r, error',
    [
        (numpy.array(0.2, numpy.float16), TypeError),
        (chainerlite.Variable(numpy.array(0.2, numpy.float16)), TypeError),
        (2.0, TypeError),
        (1.5, TypeError),
        (0, ZeroDivisionError),
        (-2, ValueError),
        (3, ValueError),
    ],
)
def test_bad_block_size_raises_chainers_type(func, x, r, error):
    with pytest.raises(error, match='(?i)' + func.__name__):
        func(x, r)
    with pytest.raises(type_check.InvalidType):
        func(numpy.array(0.2, numpy.float16), r)


def test_block_size_of_an_integer_array():
    x = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
    y = F.space2depth(x, numpy.array(2))
    numpy.testing.assert_array_equal(y.array, F.space2depth(x, 2).array)
    numpy.testing.assert_array_equal(F.depth2space(y, numpy.int64(2)).array, x)
