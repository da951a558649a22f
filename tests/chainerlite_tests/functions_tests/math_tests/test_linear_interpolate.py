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
class TestLinearInterpolate(testing.FunctionTestCase):
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
        p = numpy.random.uniform(0, 1, self.shape).astype(self.dtype)
        x, y = (
            numpy.random.uniform(-1, 1, self.shape).astype(self.dtype) for _ in range(2)
        )
        return p, x, y

    def forward(self, inputs, device):
        p, x, y = inputs
        return (F.linear_interpolate(p, x, y),)

    def forward_expected(self, inputs):
        p, x, y = inputs
        return ((p * x + (1 - p) * y).astype(x.dtype),)


def _arrays(p=(numpy.float32, 3), x=(numpy.float32, 3), y=(numpy.float32, 3)):
    return tuple(numpy.zeros(size, dtype) for dtype, size in (p, x, y))


@pytest.mark.parametrize(
    'inputs',
    [
        _arrays(p=(numpy.int32, 3), x=(numpy.int32, 3), y=(numpy.int32, 3)),
        _arrays(x=(numpy.float64, 3)),
        _arrays(y=(numpy.float16, 3)),
        _arrays(x=(numpy.float32, 2)),
        _arrays(y=(numpy.float32, 1)),
    ],
)
def test_invalid_inputs(inputs):
    with pytest.raises(type_check.InvalidType, match='LinearInterpolate'):
        F.linear_interpolate(*inputs)
