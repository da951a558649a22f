import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _tolerances(test):
    if test.dtype == numpy.float16:
        test.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
        test.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 5e-3,
            'rtol': 1e-2,
        }
        test.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-2,
            'rtol': 5e-2,
        }
    elif test.dtype == numpy.float32:
        # Finite differences in float64: float32 ones are too noisy.
        test.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-4,
            'rtol': 1e-3,
        }
        test.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-3,
            'rtol': 1e-2,
        }


@testing.parameterize(
    *testing.product(
        {
            'shape': [(), (3, 2)],
            'slope': [0.2, -0.3],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLeakyReLU(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        # Keep away from the kink at 0.
        x = numpy.random.uniform(-1, 1, self.shape)
        x[numpy.abs(x) < 0.1] = 0.5
        return (x.astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.leaky_relu(x, slope=self.slope),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (numpy.where(x >= 0, x, x * self.slope).astype(self.dtype),)


def test_default_slope_is_0_2():
    x = numpy.array([-2.0, -1.0, 0.0, 3.0], numpy.float32)
    numpy.testing.assert_allclose(
        F.leaky_relu(x).array, [-0.4, -0.2, 0.0, 3.0], rtol=1e-6
    )


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match='LeakyReLU'):
        F.leaky_relu(numpy.arange(3, dtype=numpy.int32))
