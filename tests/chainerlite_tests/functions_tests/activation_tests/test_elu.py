import warnings

import numpy
import pytest

import chainerlite
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
            'alpha': [1.0, 0.5],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestELU(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        # Keep away from the kink of the second derivative at 0.
        x = numpy.random.uniform(-2, 2, self.shape)
        x[numpy.abs(x) < 0.1] = 0.5
        return (x.astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.elu(x, alpha=self.alpha),)

    def forward_expected(self, inputs):
        (x,) = inputs
        x64 = x.astype(numpy.float64)
        y = numpy.where(x64 >= 0, x64, self.alpha * (numpy.exp(x64) - 1))
        return (y.astype(self.dtype),)


def test_default_alpha_is_1():
    x = numpy.array([-1.0, 2.0])
    numpy.testing.assert_allclose(F.elu(x).array, [numpy.expm1(-1.0), 2.0], rtol=1e-12)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_large_inputs_do_not_overflow(dtype):
    x = chainerlite.Variable(numpy.array([-1000.0, 1000.0], dtype))
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        y = F.elu(x)
        y.grad = numpy.ones(2, dtype)
        y.backward()
    numpy.testing.assert_array_equal(y.array, [-1.0, 1000.0])
    numpy.testing.assert_array_equal(x.grad, [0.0, 1.0])


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match='ELU'):
        F.elu(numpy.arange(3, dtype=numpy.int32))
