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
        {'shape': [(), (3, 4)], 'dtype': [numpy.float16, numpy.float32, numpy.float64]}
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestHardSigmoid(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        # Both flat parts and the slope, away from the kinks at -2.5, 2.5.
        x = numpy.random.uniform(-4, 4, self.shape)
        x[numpy.abs(numpy.abs(x) - 2.5) < 0.1] = 1.0
        return (x.astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.hard_sigmoid(x),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (numpy.clip(0.2 * x + 0.5, 0, 1).astype(self.dtype),)


def test_gradient_is_zero_outside_the_slope():
    import chainerlite

    x = chainerlite.Variable(numpy.array([-3.0, -1.0, 1.0, 3.0]))
    y = F.hard_sigmoid(x)
    y.grad = numpy.ones(4)
    y.backward()
    numpy.testing.assert_allclose(x.grad, [0.0, 0.2, 0.2, 0.0])


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match='HardSigmoid'):
        F.hard_sigmoid(numpy.arange(3, dtype=numpy.int32))
