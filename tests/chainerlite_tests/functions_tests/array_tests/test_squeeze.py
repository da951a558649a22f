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
            'shape_axis': [
                ((1, 3, 1), None),
                ((1, 3, 1), 0),
                ((1, 3, 1), -1),
                ((1, 3, 1), (0, 2)),
                ((1,), None),
                ((2, 3), None),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSqueeze(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        shape, _ = self.shape_axis
        return (numpy.random.uniform(-1, 1, shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.squeeze(x, self.shape_axis[1]),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (numpy.squeeze(x, self.shape_axis[1]),)


@pytest.mark.parametrize('axis', [3, -4, (0, 3)])
def test_bad_axis_is_invalid(axis):
    with pytest.raises(type_check.InvalidType, match='Squeeze'):
        F.squeeze(numpy.zeros((1, 3, 1), numpy.float32), axis)


@pytest.mark.parametrize('axis', [1, (0, 1)])
def test_axis_of_size_other_than_one(axis):
    with pytest.raises(ValueError, match='squeeze: axis 1 has size 3'):
        F.squeeze(numpy.zeros((1, 3, 1), numpy.float32), axis)


@pytest.mark.parametrize('axis', [[0], 0.0, (0, 1.0)])
def test_axis_type(axis):
    with pytest.raises(TypeError, match='squeeze'):
        F.squeeze(numpy.zeros((1, 3, 1), numpy.float32), axis)
