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
            'shape_axes': [
                ((3, 2), 0, 1),
                ((2, 3, 4), 0, 2),
                ((2, 3, 4), -1, 1),
                ((2, 3), 1, 1),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSwapaxes(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        shape = self.shape_axes[0]
        return (numpy.random.uniform(-1, 1, shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.swapaxes(x, *self.shape_axes[1:]),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (numpy.swapaxes(x, *self.shape_axes[1:]),)


@pytest.mark.parametrize('axes', [(0, 2), (-3, 1)])
def test_axis_out_of_range_is_invalid(axes):
    with pytest.raises(type_check.InvalidType, match='Swapaxes'):
        F.swapaxes(numpy.zeros((2, 3), numpy.float32), *axes)


def test_non_integer_axis():
    with pytest.raises(TypeError, match='swapaxes'):
        F.swapaxes(numpy.zeros((2, 3), numpy.float32), 0, 1.0)
