import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check

FUNCTIONS = {
    'sqrt': (F.sqrt, numpy.sqrt),
    'rsqrt': (F.rsqrt, lambda x: numpy.reciprocal(numpy.sqrt(x))),
}


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
class TestSqrt(testing.FunctionTestCase):
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
        return (numpy.random.uniform(0.5, 2, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (self.function(x),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (self.reference(x),)


@pytest.mark.parametrize('name', sorted(FUNCTIONS))
def test_integer_input_is_invalid(name):
    # rsqrt is 1 / sqrt(x): its input is checked by sqrt.
    with pytest.raises(type_check.InvalidType, match='sqrt'):
        FUNCTIONS[name][0](numpy.arange(1, 4, dtype=numpy.int32))


def test_rsqrt_second_order_at_zero_and_infinity():
    # d2/dx2 of x**-1/2 is 3/4 x**-5/2: infinite at 0, 0 at infinity, as
    # Chainer's written-out second order of 1 / sqrt(x) gives (not NaN)
    x = chainerlite.Variable(numpy.array([0.0, numpy.inf, 4.0]))
    (gx,) = chainerlite.grad([F.rsqrt(x)], [x], enable_double_backprop=True)
    (ggx,) = chainerlite.grad([F.sum(gx)], [x])
    assert numpy.isinf(ggx.array[0])
    assert ggx.array[1] == 0
    assert ggx.array[2] == pytest.approx(0.75 * 4.0**-2.5)
    numpy.testing.assert_allclose(gx.array[2], -0.5 * 4.0**-1.5)
