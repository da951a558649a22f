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


@testing.parameterize(
    *testing.product(
        {
            'axis_start': [
                (0, 0),
                (2, 0),
                (1, 3),
                (0, 2),
                (-1, 1),
                (1, -3),
                (0, 3),
                (2, 2),
                (2, 3),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestRollaxis(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, (2, 3, 4)).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.rollaxis(x, *self.axis_start),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (numpy.rollaxis(x, *self.axis_start),)


def test_default_start_is_zero():
    y = F.rollaxis(numpy.zeros((2, 3, 4), numpy.float32), 2)
    assert y.shape == (4, 2, 3)


@pytest.mark.parametrize('axis, start', [(2, 0), (-3, 0), (0, 3), (0, -3)])
def test_out_of_range_is_invalid(axis, start):
    with pytest.raises(type_check.InvalidType, match='Rollaxis'):
        F.rollaxis(numpy.zeros((2, 3), numpy.float32), axis, start)


@pytest.mark.parametrize('axis, start', [(0.0, 0), (0, None)])
def test_non_integer_arguments(axis, start):
    with pytest.raises(TypeError, match='rollaxis'):
        F.rollaxis(numpy.zeros((2, 3), numpy.float32), axis, start)
