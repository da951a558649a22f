import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {'shape': [(), (3, 2)], 'dtype': [numpy.float16, numpy.float32, numpy.float64]}
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSquaredDifference(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
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
        return tuple(
            numpy.random.uniform(-1, 1, self.shape).astype(self.dtype) for _ in range(2)
        )

    def forward(self, inputs, device):
        x1, x2 = inputs
        return (F.squared_difference(x1, x2),)

    def forward_expected(self, inputs):
        x1, x2 = inputs
        return (numpy.square(x1 - x2),)


@pytest.mark.parametrize(
    'x1, x2',
    [
        (numpy.zeros(3, numpy.int32), numpy.ones(3, numpy.int32)),
        (numpy.zeros(3, numpy.float32), numpy.ones(3, numpy.float64)),
        (numpy.zeros(3, numpy.float32), numpy.ones(2, numpy.float32)),
        (numpy.zeros((2, 3), numpy.float32), numpy.ones(3, numpy.float32)),
    ],
)
def test_invalid_inputs(x1, x2):
    with pytest.raises(type_check.InvalidType, match='SquaredError'):
        F.squared_difference(x1, x2)
