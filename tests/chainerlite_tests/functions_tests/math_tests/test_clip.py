import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {
            'bounds': [(-0.5, 0.5), (None, 0.5), (-0.5, None)],
            'shape': [(), (3, 2)],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestClip(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
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
        # The function has kinks at the bounds: keep the inputs away.
        x = numpy.random.uniform(-1, 1, self.shape)
        for bound in self.bounds:
            if bound is not None:
                x[numpy.abs(x - bound) < 0.05] = 0
        return (x.astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.clip(x, *self.bounds),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (numpy.clip(x, *self.bounds).astype(self.dtype),)


def test_gradient_passes_at_the_bounds():
    x = chainerlite.Variable(numpy.array([-2.0, -1.0, 0.0, 1.0, 2.0], numpy.float32))
    y = F.clip(x, -1.0, 1.0)
    y.grad = numpy.full(5, 3.0, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [0.0, 3.0, 3.0, 3.0, 0.0])


@pytest.mark.parametrize('x_min, x_max', [(None, None), (1.0, 1.0), (2.0, 1.0)])
def test_invalid_bounds(x_min, x_max):
    with pytest.raises(ValueError):
        F.clip(numpy.zeros(3, numpy.float32), x_min, x_max)


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match='Clip'):
        F.clip(numpy.arange(3, dtype=numpy.int32), 0.0, 1.0)
