import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {
            'shape': [(4, 3), (2,)],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestMeanAbsoluteError(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
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
        # Keep the differences away from zero, where |.| has a kink.
        x0 = numpy.random.uniform(-1, 1, self.shape)
        offset = numpy.random.uniform(0.2, 1, self.shape)
        sign = numpy.random.choice([-1, 1], self.shape)
        x1 = numpy.asarray(x0 + sign * offset)
        return x0.astype(self.dtype), x1.astype(self.dtype)

    def forward(self, inputs, device):
        return (F.mean_absolute_error(*inputs),)

    def forward_expected(self, inputs):
        x0, x1 = inputs
        diff = x0.astype(numpy.float64) - x1
        return (numpy.asarray(abs(diff).mean(), self.dtype),)


@pytest.mark.parametrize(
    'x0, x1',
    [
        (numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.float16)),
        (numpy.zeros(3, numpy.float32), numpy.zeros((3, 1), numpy.float32)),
        (numpy.zeros(3, numpy.int32), numpy.zeros(3, numpy.int32)),
    ],
)
def test_invalid_inputs(x0, x1):
    with pytest.raises(type_check.InvalidType, match='MeanAbsoluteError'):
        F.mean_absolute_error(x0, x1)


def test_float16_sum_does_not_overflow():
    # The sum of |x0 - x1| (65536) is beyond float16; the mean (4) is not.
    x0 = numpy.full((64, 1, 16, 16), 2, numpy.float16)
    loss = F.mean_absolute_error(x0, -x0)
    assert loss.dtype == numpy.float16
    assert loss.array == 4
