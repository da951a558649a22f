import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _tolerances(test):
    if test.dtype == numpy.float16:
        test.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 5e-3,
            'rtol': 1e-2,
        }
        test.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 5e-3,
            'rtol': 1e-2,
        }
    elif test.dtype == numpy.float32:
        test.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-4,
            'rtol': 1e-3,
        }
        test.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-4,
            'rtol': 1e-3,
        }


def depth2space_reference(x, r):
    b, rrc, h, w = x.shape
    c = rrc // (r * r)
    y = numpy.empty((b, c, h * r, w * r), x.dtype)
    for i in range(r):
        for j in range(r):
            for k in range(c):
                y[:, k, i::r, j::r] = x[:, (i * r + j) * c + k]
    return y


@testing.parameterize(
    *testing.product(
        {
            'shape_r': [((2, 8, 2, 3), 2), ((1, 9, 2, 1), 3), ((1, 2, 2, 2), 1)],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDepth2Space(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        shape, _ = self.shape_r
        return (numpy.random.uniform(-1, 1, shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.depth2space(x, self.shape_r[1]),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (depth2space_reference(x, self.shape_r[1]),)


@pytest.mark.parametrize(
    'x',
    [
        numpy.zeros((1, 6, 2, 2), numpy.float32),
        numpy.zeros((8, 2, 2), numpy.float32),
        numpy.zeros((1, 8, 2, 2), numpy.int32),
    ],
)
def test_invalid_inputs(x):
    with pytest.raises(type_check.InvalidType, match='Depth2Space'):
        F.depth2space(x, 2)
