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
            'shape_n_axis': [
                ((2, 3), 3, 0),
                ((2, 3), 2, 1),
                ((2, 3), 2, 2),
                ((2, 3), 2, -1),
                ((2, 3), 1, -3),
                ((), 3, 0),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestStack(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        shape, n, _ = self.shape_n_axis
        return tuple(
            numpy.random.uniform(-1, 1, shape).astype(self.dtype) for _ in range(n)
        )

    def forward(self, inputs, device):
        return (F.stack(inputs, self.shape_n_axis[2]),)

    def forward_expected(self, inputs):
        return (numpy.stack(inputs, self.shape_n_axis[2]),)


@pytest.mark.parametrize(
    'xs, axis',
    [
        ((numpy.zeros((2, 3), numpy.float32), numpy.zeros((3, 2), numpy.float32)), 0),
        ((numpy.zeros((2, 3), numpy.float32), numpy.zeros((2, 3), numpy.float16)), 0),
        ((numpy.zeros((2, 3), numpy.float32),), 3),
        ((numpy.zeros((2, 3), numpy.float32),), -4),
        ((), 0),
    ],
)
def test_invalid_inputs(xs, axis):
    with pytest.raises(type_check.InvalidType, match='Stack'):
        F.stack(xs, axis)
