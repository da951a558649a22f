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


def space2depth_reference(x, r):
    b, c, h, w = x.shape
    y = numpy.empty((b, r * r * c, h // r, w // r), x.dtype)
    for i in range(r):
        for j in range(r):
            for k in range(c):
                y[:, (i * r + j) * c + k] = x[:, k, i::r, j::r]
    return y


@testing.parameterize(
    *testing.product(
        {
            'shape_r': [((2, 3, 4, 6), 2), ((1, 2, 3, 6), 3), ((1, 1, 2, 2), 1)],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSpace2Depth(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        shape, _ = self.shape_r
        return (numpy.random.uniform(-1, 1, shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.space2depth(x, self.shape_r[1]),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (space2depth_reference(x, self.shape_r[1]),)


def test_inverse_of_depth2space():
    x = numpy.random.uniform(-1, 1, (2, 8, 3, 2)).astype(numpy.float32)
    y = F.space2depth(F.depth2space(x, 2), 2)
    numpy.testing.assert_array_equal(y.array, x)


@pytest.mark.parametrize(
    'x',
    [
        numpy.zeros((1, 1, 3, 4), numpy.float32),
        numpy.zeros((1, 1, 4, 3), numpy.float32),
        numpy.zeros((1, 4, 4), numpy.float32),
        numpy.zeros((1, 1, 4, 4), numpy.int32),
    ],
)
def test_invalid_inputs(x):
    with pytest.raises(type_check.InvalidType, match='Space2Depth'):
        F.space2depth(x, 2)
