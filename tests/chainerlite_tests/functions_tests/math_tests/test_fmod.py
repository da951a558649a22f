import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {
            'shapes': [
                ((), ()),
                ((3, 2), (3, 2)),
                ((3, 2), (2,)),
                ((3, 1), (1, 2)),
                ((), (2,)),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestFmod(testing.FunctionTestCase):
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
        # fmod jumps where x / divisor is an integer: stay away from there.
        x_shape, divisor_shape = self.shapes
        while True:
            x = numpy.random.uniform(-5, 5, x_shape).astype(self.dtype)
            divisor = numpy.random.uniform(1, 2, divisor_shape)
            divisor *= numpy.random.choice([-1, 1], divisor_shape)
            divisor = divisor.astype(self.dtype)
            ratio = numpy.abs(x.astype(numpy.float64) / divisor)
            if numpy.abs(ratio - numpy.round(ratio)).min() > 0.05:
                return x, divisor

    def forward(self, inputs, device):
        x, divisor = inputs
        return (F.fmod(x, divisor),)

    def forward_expected(self, inputs):
        x, divisor = inputs
        return (numpy.fmod(x, divisor),)


@pytest.mark.parametrize(
    'x, divisor',
    [
        (numpy.ones(3, numpy.int32), numpy.ones(3, numpy.int32)),
        (numpy.ones(3, numpy.float32), numpy.ones(3, numpy.float64)),
        (numpy.ones(3, numpy.float32), numpy.ones(2, numpy.float32)),
    ],
)
def test_invalid_inputs(x, divisor):
    # shapes that do not broadcast: Chainer's message lists them
    with pytest.raises(type_check.InvalidType, match='fmod|cannot broadcast'):
        F.fmod(x, divisor)
