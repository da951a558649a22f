import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {
            'shape_axis': [
                ((), None),
                ((4,), None),
                ((3, 4), None),
                ((4,), 0),
                ((3, 4), 0),
                ((2, 3, 4), 1),
                ((2, 3, 4), -1),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestCumsum(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 5e-3,
                'rtol': 1e-2,
            }
            self.check_double_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-2,
                'rtol': 5e-2,
            }
        elif self.dtype == numpy.float32:
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-4,
                'rtol': 1e-3,
            }
            self.check_double_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-3,
                'rtol': 1e-2,
            }

    def generate_inputs(self):
        shape, _ = self.shape_axis
        return (numpy.random.uniform(-1, 1, shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        _, axis = self.shape_axis
        return (F.cumsum(x, axis=axis),)

    def forward_expected(self, inputs):
        (x,) = inputs
        _, axis = self.shape_axis
        y = numpy.cumsum(x.astype(numpy.float64), axis=axis)
        return (y.astype(self.dtype),)


def test_gradient_is_the_reversed_cumulative_sum():
    x = numpy.zeros((2, 3))
    gy = numpy.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    (gx,) = F.cumsum(x, axis=1).creator.backward((0,), (gy,))
    numpy.testing.assert_array_equal(gx.array, [[6.0, 5.0, 3.0], [15.0, 11.0, 6.0]])


@pytest.mark.parametrize('axis', [2, -3])
def test_axis_out_of_range_is_invalid(axis):
    with pytest.raises(type_check.InvalidType, match='Cumsum'):
        F.cumsum(numpy.ones((2, 3), numpy.float32), axis=axis)


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match='Cumsum'):
        F.cumsum(numpy.ones((2, 3), numpy.int32))


@pytest.mark.parametrize('axis', [(0,), 1.0])
def test_axis_must_be_int_or_none(axis):
    with pytest.raises(TypeError, match='int or None'):
        F.cumsum(numpy.ones((2, 3), numpy.float32), axis=axis)
