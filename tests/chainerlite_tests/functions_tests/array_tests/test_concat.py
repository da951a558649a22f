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
            'shapes_axis': [
                (((2, 3), (2, 1), (2, 4)), 1),
                (((2, 3), (1, 3)), 0),
                (((2, 3, 2), (2, 1, 2)), -2),
                (((3,), (0,), (2,)), 0),
                (((2, 3),), 1),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestConcat(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        shapes, _ = self.shapes_axis
        return tuple(
            numpy.random.uniform(-1, 1, shape).astype(self.dtype) for shape in shapes
        )

    def forward(self, inputs, device):
        return (F.concat(inputs, self.shapes_axis[1]),)

    def forward_expected(self, inputs):
        return (numpy.concatenate(inputs, self.shapes_axis[1]),)


def test_default_axis_is_one():
    x = numpy.zeros((2, 3), numpy.float32)
    assert F.concat((x, x)).shape == (2, 6)


@pytest.mark.parametrize(
    'xs, axis',
    [
        ((numpy.zeros((2, 3), numpy.float32), numpy.zeros((3, 3), numpy.float32)), 1),
        ((numpy.zeros((2, 3), numpy.float32), numpy.zeros((2, 3), numpy.float64)), 1),
        ((numpy.zeros((2, 3), numpy.float32), numpy.zeros((2,), numpy.float32)), 0),
        ((numpy.zeros((2, 3), numpy.float32),), 2),
        ((numpy.zeros((2, 3), numpy.float32),), -3),
        ((), 1),
    ],
)
def test_invalid_inputs(xs, axis):
    with pytest.raises(type_check.InvalidType, match='Concat'):
        F.concat(xs, axis)


def test_non_integer_axis():
    with pytest.raises(TypeError, match='concat'):
        F.concat((numpy.zeros((2, 3), numpy.float32),), 1.0)
