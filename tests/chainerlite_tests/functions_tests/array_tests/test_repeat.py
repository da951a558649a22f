import numpy
import pytest

import chainerlite
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
            'shape_repeats_axis': [
                ((3,), 2, None),
                ((2, 3), (2, 0, 1, 1, 3, 1), None),
                ((3, 2), 2, 0),
                ((3, 2), (2, 0, 1), 0),
                ((3, 2, 3), 2, -1),
                ((3, 2, 3), (1, 2), 1),
                ((2, 3), 0, 1),
                ((), 3, None),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestRepeat(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        shape = self.shape_repeats_axis[0]
        return (numpy.random.uniform(-1, 1, shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.repeat(x, *self.shape_repeats_axis[1:]),)

    def forward_expected(self, inputs):
        (x,) = inputs
        _, repeats, axis = self.shape_repeats_axis
        return (numpy.repeat(x, repeats, axis),)


@pytest.mark.parametrize(
    'repeats, axis', [(1, 2), (1, -3), ((1, 2), 1), ((1, 2), None)]
)
def test_invalid_axis_or_length(repeats, axis):
    with pytest.raises(type_check.InvalidType, match='Repeat'):
        F.repeat(numpy.zeros((2, 3), numpy.float32), repeats, axis)


@pytest.mark.parametrize(
    'repeats, axis', [(1.0, None), ([1, 2], 0), (1, 1.0), (1, True)]
)
def test_argument_types(repeats, axis):
    with pytest.raises(TypeError, match='repeat'):
        F.repeat(numpy.zeros((2, 3), numpy.float32), repeats, axis)


@pytest.mark.parametrize('repeats', [-1, (1, -1)])
def test_negative_repeats(repeats):
    with pytest.raises(ValueError, match='repeat'):
        F.repeat(numpy.zeros((2, 3), numpy.float32), repeats, 0)


@pytest.mark.parametrize('repeats', [True, (True, False)])
def test_bool_repeats_count_as_ints(repeats):
    x = chainerlite.Variable(numpy.array([1.0, 2.0]))
    y = F.repeat(x, repeats)
    numpy.testing.assert_array_equal(
        y.array, numpy.repeat(x.array, numpy.asarray(repeats, int))
    )
    F.sum(y * y).backward()
    numpy.testing.assert_array_equal(x.grad, 2 * x.array * numpy.asarray(repeats, int))
