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
            'shapes': [
                ((), ()),
                ((3,), (3,), (3,)),
                ((2, 3), (1, 3)),
                ((2, 3, 2), (1, 3, 2), (3, 3, 2)),
                ((3,),),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestVstack(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        return tuple(
            numpy.random.uniform(-1, 1, shape).astype(self.dtype)
            for shape in self.shapes
        )

    def forward(self, inputs, device):
        return (F.vstack(inputs),)

    def forward_expected(self, inputs):
        return (numpy.vstack(inputs),)


@pytest.mark.parametrize(
    'shapes', [((3,), (2,)), ((2, 3), (2, 2)), ((2, 3, 2), (2, 3, 1))]
)
def test_mismatched_shapes_are_invalid(shapes):
    xs = [numpy.zeros(shape, numpy.float32) for shape in shapes]
    with pytest.raises(type_check.InvalidType, match='Vstack'):
        F.vstack(xs)


def test_mismatched_dtypes_are_invalid():
    xs = [numpy.zeros((2, 3, 2), numpy.float32), numpy.zeros((2, 3, 2), numpy.float64)]
    with pytest.raises(type_check.InvalidType, match='Vstack'):
        F.vstack(xs)


def test_no_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match='Vstack'):
        F.vstack([])
