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
            'source_destination': [
                (0, -1),
                (-1, 0),
                (1, 1),
                ((0, 3), (2, 0)),
                ((0, 1, 2), (2, 0, 1)),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestMoveaxis(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, (2, 3, 4, 1)).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.moveaxis(x, *self.source_destination),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (numpy.moveaxis(x, *self.source_destination),)


@pytest.mark.parametrize('source, destination', [(2, 0), (0, -3), ((0, 1), (1, 2))])
def test_axis_out_of_range_is_invalid(source, destination):
    with pytest.raises(type_check.InvalidType, match='Moveaxis'):
        F.moveaxis(numpy.zeros((2, 3), numpy.float32), source, destination)


@pytest.mark.parametrize('source, destination', [((0, -2), (0, 1)), ((0, 1), (1, -1))])
def test_duplicate_axis(source, destination):
    with pytest.raises(ValueError, match='moveaxis: duplicate'):
        F.moveaxis(numpy.zeros((2, 3), numpy.float32), source, destination)


def test_length_mismatch():
    with pytest.raises(ValueError, match='moveaxis'):
        F.moveaxis(numpy.zeros((2, 3), numpy.float32), (0, 1), 1)


@pytest.mark.parametrize('source', [0.0, [0], (0, None)])
def test_axis_type(source):
    with pytest.raises(TypeError, match='moveaxis'):
        F.moveaxis(numpy.zeros((2, 3), numpy.float32), source, 1)
