import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.functions.array import flip as flip_module
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
            'shape_axis': [((3,), 0), ((2, 3), 1), ((2, 3, 4), -1), ((2, 3, 4), -3)],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestFlip(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        shape, _ = self.shape_axis
        return (numpy.random.uniform(-1, 1, shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.flip(x, self.shape_axis[1]),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (numpy.flip(x, self.shape_axis[1]),)


@pytest.mark.parametrize('axis', [2, -3])
def test_axis_out_of_range_is_invalid(axis):
    with pytest.raises(type_check.InvalidType, match='Flip'):
        F.flip(numpy.zeros((2, 3), numpy.float32), axis)


def test_scalar_is_invalid():
    with pytest.raises(type_check.InvalidType, match='Flip'):
        F.flip(numpy.zeros((), numpy.float32), 0)


def test_non_integer_axis():
    with pytest.raises(TypeError, match='flip'):
        F.flip(numpy.zeros((2, 3), numpy.float32), None)


@pytest.mark.parametrize('axis', [0, 1, -1, -2])
def test_array_helper_reverses_like_numpy(axis):
    x = numpy.arange(6.0).reshape(2, 3)
    numpy.testing.assert_array_equal(
        flip_module._flip(x, axis), x[::-1] if axis in (0, -2) else x[:, ::-1]
    )
    with pytest.raises(ValueError, match='flip'):
        flip_module._flip(x, 2)
