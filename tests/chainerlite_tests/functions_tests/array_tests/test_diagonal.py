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
            'shape_args': [
                ((3, 3), (0, 0, 1)),
                ((3, 4), (1, 0, 1)),
                ((3, 4, 5), (-2, 2, 0)),
                ((3, 4, 5), (0, -1, 1)),
                ((3, 4, 5), (2, 1, 2)),
                ((2, 3), (5, 0, 1)),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDiagonal(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        shape, _ = self.shape_args
        return (numpy.random.uniform(-1, 1, shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.diagonal(x, *self.shape_args[1]),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (numpy.diagonal(x, *self.shape_args[1]).copy(),)


def test_defaults():
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    numpy.testing.assert_array_equal(F.diagonal(x).array, [0, 4])


@pytest.mark.parametrize(
    'shape, axis1, axis2',
    [((3,), 0, 1), ((3, 3), 0, 0), ((3, 3), 1, -1), ((3, 3), 0, 2), ((3, 3), -3, 1)],
)
def test_invalid_inputs(shape, axis1, axis2):
    with pytest.raises(type_check.InvalidType, match='Diagonal'):
        F.diagonal(numpy.zeros(shape, numpy.float32), 0, axis1, axis2)


# The types Chainer 7.8.1 fails with (recorded from it): axes that are not
# ints are a TypeError before the rank is checked; the same axis twice is
# NumPy's ValueError (here also InvalidType).
@pytest.mark.parametrize('shape', [(), (3,), (2, 2)])
def test_axis_of_none_is_a_type_error(shape):
    x = numpy.zeros(shape, numpy.float16)
    with pytest.raises(TypeError, match='diagonal: axis1 must be an int'):
        F.diagonal(x, axis1=None, axis2=None)


def test_the_same_axis_twice_is_a_value_error():
    x = numpy.zeros((1, 1, 3), numpy.float32)
    for error in (ValueError, type_check.InvalidType):
        with pytest.raises(error, match='Diagonal'):
            F.diagonal(x, axis1=2, axis2=2)
        with pytest.raises(error, match='Diagonal'):
            F.diagonal(x, axis1=-1, axis2=2)


@pytest.mark.parametrize('offset', [numpy.array([1, 2]), numpy.zeros((2, 0)), 1.0])
def test_offset_not_an_int_is_type_error(offset):
    # NumPy takes the offset before it compares the axes (Chainer 7.8.1)
    x = numpy.zeros((2, 2), numpy.float32)
    with pytest.raises(TypeError, match='diagonal: offset must be an int'):
        F.diagonal(x, offset=offset, axis1=1)


def test_1d_input_is_value_error():
    with pytest.raises(ValueError, match='ndim') as info:
        F.diagonal(numpy.zeros(3, numpy.float32), axis1=0, axis2=-1)
    assert isinstance(info.value, type_check.InvalidType)
