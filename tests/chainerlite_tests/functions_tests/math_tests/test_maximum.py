import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {
            'shapes': [
                ((), ()),
                ((3, 2), (3, 2)),
                ((3, 2), (2,)),
                ((3, 1), (1, 2)),
                ((), (2,)),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestMaximum(testing.FunctionTestCase):
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
        # The function has a kink where x1 == x2: keep the inputs apart.
        while True:
            x1, x2 = (
                numpy.random.uniform(-1, 1, shape).astype(self.dtype)
                for shape in self.shapes
            )
            if numpy.abs(x1 - x2).min() > 0.05:
                return x1, x2

    def forward(self, inputs, device):
        x1, x2 = inputs
        return (F.maximum(x1, x2),)

    def forward_expected(self, inputs):
        x1, x2 = inputs
        return (numpy.maximum(x1, x2),)


def test_ties_send_the_gradient_to_x1():
    x1 = chainerlite.Variable(numpy.array([1.0, 2.0], numpy.float32))
    x2 = chainerlite.Variable(numpy.array([1.0, 2.0], numpy.float32))
    y = F.maximum(x1, x2)
    y.grad = numpy.array([3.0, 4.0], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x1.grad, [3.0, 4.0])
    numpy.testing.assert_array_equal(x2.grad, [0.0, 0.0])


@pytest.mark.parametrize(
    'x1, x2',
    [
        (numpy.zeros(3, numpy.int32), numpy.ones(3, numpy.int32)),
        (numpy.zeros(3, numpy.float32), numpy.ones(3, numpy.float64)),
        (numpy.zeros(3, numpy.float32), numpy.ones(2, numpy.float32)),
    ],
)
def test_invalid_inputs(x1, x2):
    # shapes that do not broadcast: Chainer's message lists them
    with pytest.raises(type_check.InvalidType, match='Maximum|cannot broadcast'):
        F.maximum(x1, x2)
