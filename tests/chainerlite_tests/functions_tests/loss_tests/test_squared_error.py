import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {'shape': [(4, 3), ()], 'dtype': [numpy.float16, numpy.float32, numpy.float64]}
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSquaredError(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-2,
                'rtol': 1e-2,
            }
            self.check_double_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-2,
                'rtol': 1e-2,
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
        x0 = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        x1 = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        return x0, x1

    def forward(self, inputs, device):
        return (F.squared_error(*inputs),)

    def forward_expected(self, inputs):
        x0, x1 = inputs
        diff = x0.astype(numpy.float64) - x1
        return ((diff * diff).astype(self.dtype),)


@pytest.mark.parametrize(
    'x0, x1',
    [
        (numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.float64)),
        (numpy.zeros(3, numpy.float32), numpy.zeros(2, numpy.float32)),
        (numpy.zeros(3, numpy.int32), numpy.zeros(3, numpy.int32)),
    ],
)
def test_invalid_inputs(x0, x1):
    with pytest.raises(type_check.InvalidType, match='SquaredError'):
        F.squared_error(x0, x1)
