import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check

FUNCTIONS = {'sinh': (F.sinh, numpy.sinh), 'cosh': (F.cosh, numpy.cosh)}


@testing.parameterize(
    *testing.product(
        {
            'name': sorted(FUNCTIONS),
            'shape': [(), (3, 2)],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestHyperbolic(testing.FunctionTestCase):
    def setUp(self):
        self.function, self.reference = FUNCTIONS[self.name]
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
        return (self.function(x),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (self.reference(x),)


@pytest.mark.parametrize('name', sorted(FUNCTIONS))
def test_integer_input_is_invalid(name):
    with pytest.raises(type_check.InvalidType, match=name):
        FUNCTIONS[name][0](numpy.arange(3, dtype=numpy.int32))
