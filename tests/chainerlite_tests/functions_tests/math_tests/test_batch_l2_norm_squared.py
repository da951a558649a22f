import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {
            'shape': [(4, 3), (4, 3, 2), (1, 5), (3, 1, 1)],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestBatchL2NormSquared(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
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
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.batch_l2_norm_squared(x),)

    def forward_expected(self, inputs):
        (x,) = inputs
        x = x.astype(numpy.float64).reshape(len(x), -1)
        return ((x * x).sum(axis=1).astype(self.dtype),)


@pytest.mark.parametrize('shape', [(), (3,)])
def test_fewer_than_two_axes_are_invalid(shape):
    with pytest.raises(type_check.InvalidType, match='BatchL2NormSquared'):
        F.batch_l2_norm_squared(numpy.ones(shape, numpy.float32))


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match='BatchL2NormSquared'):
        F.batch_l2_norm_squared(numpy.ones((2, 3), numpy.int32))
