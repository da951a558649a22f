import math

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
class TestErf(testing.FunctionTestCase):
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
        return (numpy.random.uniform(-2, 2, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.erf(x),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (numpy.vectorize(math.erf)(x).astype(x.dtype),)


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match='erf'):
        F.erf(numpy.arange(1, 4, dtype=numpy.int32))


def test_known_values():
    x = numpy.array([0.0, 0.5, 1.0, -1.0, 3.0, -numpy.inf], numpy.float64)
    expected = [
        0.0,
        0.5204998778130465,
        0.8427007929497149,
        -0.8427007929497149,
        0.9999779095030014,
        -1.0,
    ]
    numpy.testing.assert_allclose(F.erf(x).array, expected, rtol=1e-15)
