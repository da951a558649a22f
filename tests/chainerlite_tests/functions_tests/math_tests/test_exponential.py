import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check

# name: (function, NumPy reference, range of the inputs)
FUNCTIONS = {
    'exp': (F.exp, numpy.exp, (-1, 1)),
    'log': (F.log, numpy.log, (0.5, 2)),
    'log2': (F.log2, numpy.log2, (0.5, 2)),
    'log10': (F.log10, numpy.log10, (0.5, 2)),
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
class TestExponential(testing.FunctionTestCase):
    def setUp(self):
        self.function, self.reference, self.bounds = FUNCTIONS[self.name]
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
        return (numpy.random.uniform(*self.bounds, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (self.function(x),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (self.reference(x),)


@pytest.mark.parametrize('name', sorted(FUNCTIONS))
def test_integer_input_is_invalid(name):
    with pytest.raises(type_check.InvalidType, match=name):
        FUNCTIONS[name][0](numpy.arange(1, 4, dtype=numpy.int32))


def test_exp_backward_multiplies_the_output_by_the_gradient_in_chainers_order():
    import chainerlite

    seen = []

    class Inputs(chainerlite.FunctionHook):
        def forward_preprocess(self, function, in_data):
            seen.append([a.copy() for a in in_data])

    x = chainerlite.Variable(numpy.array([0.0, 1.0], numpy.float32))
    y = F.exp(x)
    y.grad = numpy.full(2, 3.0, numpy.float32)
    with Inputs():
        y.backward()
    ((y_in, gy_in),) = seen
    numpy.testing.assert_allclose(y_in, numpy.exp([0.0, 1.0]), rtol=1e-6)
    numpy.testing.assert_array_equal(gy_in, [3.0, 3.0])
