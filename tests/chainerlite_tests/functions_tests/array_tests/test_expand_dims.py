import numpy
import pytest

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
            'shape_axis': [
                ((3,), 0),
                ((3,), 1),
                ((3,), -1),
                ((3,), -2),
                ((2, 3), 1),
                ((), 0),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestExpandDims(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        shape, _ = self.shape_axis
        return (numpy.random.uniform(-1, 1, shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.expand_dims(x, self.shape_axis[1]),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (numpy.expand_dims(x, self.shape_axis[1]),)


@pytest.mark.parametrize('axis', [3, -4])
def test_axis_out_of_range_is_invalid(axis):
    with pytest.raises(type_check.InvalidType, match='ExpandDims'):
        F.expand_dims(numpy.zeros((2, 3), numpy.float32), axis)


def test_non_integer_axis():
    with pytest.raises(TypeError, match='expand_dims'):
        F.expand_dims(numpy.zeros((2, 3), numpy.float32), 1.0)
