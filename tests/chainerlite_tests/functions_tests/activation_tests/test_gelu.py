import math

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


def _gelu_reference(x):
    erf = numpy.vectorize(math.erf)
    x64 = x.astype(numpy.float64)
    return x64 * 0.5 * (1 + erf(x64 / math.sqrt(2)))


@testing.parameterize(
    *testing.product(
        {'shape': [(), (3, 2)], 'dtype': [numpy.float16, numpy.float32, numpy.float64]}
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestGELU(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        return (numpy.random.uniform(-3, 3, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.gelu(x),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (_gelu_reference(x).astype(self.dtype),)


def test_left_tail_keeps_relative_precision():
    # Phi(-10) = 7.6198530241605e-24; 1 + erf(-10 / sqrt(2)) cancels to 0.
    y = F.gelu(numpy.array([-10.0]))
    numpy.testing.assert_allclose(y.array, [-7.6198530241605e-23], rtol=1e-10)


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match='GELU'):
        F.gelu(numpy.arange(3, dtype=numpy.int32))
