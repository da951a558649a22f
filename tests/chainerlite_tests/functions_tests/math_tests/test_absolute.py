import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {'shape': [(), (3, 2)], 'dtype': [numpy.float16, numpy.float32, numpy.float64]}
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestAbsolute(testing.FunctionTestCase):
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
        # |x| has a kink at zero: keep the inputs away from it.
        x = numpy.random.uniform(0.1, 1, self.shape)
        x *= numpy.random.choice([-1, 1], self.shape)
        return (x.astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.absolute(x),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (numpy.abs(x),)


def test_is_the_node_of_abs():
    x = chainerlite.Variable(numpy.array([-1.0, 2.0], numpy.float32))
    assert type(F.absolute(x).creator) is type(abs(x).creator)


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match=r'\|_\|'):
        F.absolute(numpy.arange(3, dtype=numpy.int32))
