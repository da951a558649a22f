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
            'shape_width_mode_keywords': [
                ((3,), 1, 'constant', {}),
                ((2, 3), ((1, 2), (0, 1)), 'constant', {'constant_values': 2.5}),
                ((2, 3), (1, 2), 'constant', {'constant_values': ((1, 2), (3, 4))}),
                ((2, 3, 2), 0, 'constant', {}),
                ((2, 3), (1, 2), 'edge', {}),
                ((3, 4), 2, 'reflect', {}),
                ((3, 4), ((1, 2), (2, 3)), 'symmetric', {}),
                ((3, 4), ((4, 2), (2, 5)), 'wrap', {}),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestPad(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        shape = self.shape_width_mode_keywords[0]
        return (numpy.random.uniform(-1, 1, shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        _, width, mode, keywords = self.shape_width_mode_keywords
        return (F.pad(x, width, mode, **keywords),)

    def forward_expected(self, inputs):
        (x,) = inputs
        _, width, mode, keywords = self.shape_width_mode_keywords
        return (numpy.pad(x, width, mode, **keywords),)


def test_default_mode_is_constant_zero():
    y = F.pad(numpy.ones(2, numpy.float32), 1)
    numpy.testing.assert_array_equal(y.array, [0, 1, 1, 0])


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match='Pad'):
        F.pad(numpy.zeros(3, numpy.int32), 1)


@pytest.mark.parametrize(
    'mode, keywords',
    [('mean', {}), ('linear_ramp', {}), ('reflect', {'reflect_type': 'odd'})],
)
def test_unsupported_options(mode, keywords):
    with pytest.raises(NotImplementedError, match='pad'):
        F.pad(numpy.zeros(3, numpy.float32), 1, mode, **keywords)
