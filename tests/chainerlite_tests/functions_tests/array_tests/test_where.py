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


@testing.parameterize(
    *testing.product(
        {
            'shapes': [
                ((3, 2), (3, 2), (3, 2)),
                ((), (), ()),
                ((3, 1), (3, 2), (2,)),
                ((2,), (3, 2), ()),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestWhere(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        c_shape, x_shape, y_shape = self.shapes
        condition = numpy.asarray(numpy.random.uniform(-1, 1, c_shape) > 0)
        x = numpy.random.uniform(-1, 1, x_shape).astype(self.dtype)
        y = numpy.random.uniform(-1, 1, y_shape).astype(self.dtype)
        return condition, x, y

    def forward(self, inputs, device):
        return (F.where(*inputs),)

    def forward_expected(self, inputs):
        return (numpy.where(*inputs),)


def test_condition_variable_gets_no_gradient():
    condition = chainerlite.Variable(numpy.array([True, False]))
    x = chainerlite.Variable(numpy.ones(2, numpy.float32))
    y = chainerlite.Variable(numpy.zeros(2, numpy.float32))
    F.sum(F.where(condition, x, y)).backward()
    assert condition.grad is None
    numpy.testing.assert_array_equal(x.grad, [1, 0])
    numpy.testing.assert_array_equal(y.grad, [0, 1])


@pytest.mark.parametrize(
    'c, x, y',
    [
        (
            numpy.zeros(3, numpy.float32),
            numpy.zeros(3, numpy.float32),
            numpy.zeros(3, numpy.float32),
        ),
        (
            numpy.zeros(3, bool),
            numpy.zeros(3, numpy.float32),
            numpy.zeros(3, numpy.float64),
        ),
        (
            numpy.zeros(3, bool),
            numpy.zeros(3, numpy.float32),
            numpy.zeros(2, numpy.float32),
        ),
        (
            numpy.zeros(2, bool),
            numpy.zeros(3, numpy.float32),
            numpy.zeros(3, numpy.float32),
        ),
    ],
)
def test_invalid_inputs(c, x, y):
    # shapes that do not broadcast: Chainer's message lists them
    with pytest.raises(type_check.InvalidType, match='Where|cannot broadcast'):
        F.where(c, x, y)
