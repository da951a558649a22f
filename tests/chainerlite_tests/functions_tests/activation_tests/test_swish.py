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
            'shapes': [
                ((2, 3), (3,)),
                ((2, 3, 2), (3,)),
                ((2, 3, 2), (3, 2)),
                ((2, 3), ()),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSwish(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        x_shape, beta_shape = self.shapes
        x = numpy.random.uniform(-2, 2, x_shape)
        beta = numpy.random.uniform(-1, 1, beta_shape)
        return x.astype(self.dtype), beta.astype(self.dtype)

    def forward(self, inputs, device):
        x, beta = inputs
        return (F.swish(x, beta),)

    def forward_expected(self, inputs):
        x, beta = inputs
        # beta covers the axes right after the batch axis.
        beta = beta.reshape((1,) + beta.shape + (1,) * (x.ndim - beta.ndim - 1))
        x64 = x.astype(numpy.float64)
        y = x64 / (1 + numpy.exp(-beta * x64))
        return (y.astype(self.dtype),)


def test_beta_zero_halves_the_input():
    x = numpy.array([[-2.0, 1.0, 4.0]])
    numpy.testing.assert_array_equal(F.swish(x, numpy.zeros(3)).array, x / 2)


@pytest.mark.parametrize(
    'x_shape, beta_shape, beta_dtype',
    [
        ((2, 3), (3,), numpy.float64),  # dtype differs from x
        ((2, 3), (2,), numpy.float32),  # beta does not match axis 1
        ((3,), (3,), numpy.float32),  # no batch axis left
    ],
)
def test_bad_beta_is_invalid(x_shape, beta_shape, beta_dtype):
    x = numpy.ones(x_shape, numpy.float32)
    with pytest.raises(type_check.InvalidType, match='Swish'):
        F.swish(x, numpy.ones(beta_shape, beta_dtype))


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match='Swish'):
        F.swish(numpy.ones((2, 3), numpy.int32), numpy.ones(3, numpy.int32))
