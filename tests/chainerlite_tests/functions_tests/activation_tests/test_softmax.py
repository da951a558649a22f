import warnings

import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _tolerances(test):
    if test.dtype == numpy.float16:
        test.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
        test.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 5e-3,
            'rtol': 1e-2,
        }
        test.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-2,
            'rtol': 5e-2,
        }
    elif test.dtype == numpy.float32:
        # Finite differences in float64: float32 ones are too noisy.
        test.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-4,
            'rtol': 1e-3,
        }
        test.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-3,
            'rtol': 1e-2,
        }


@testing.parameterize(
    *testing.product(
        {
            'shape_axis': [((2, 3), 1), ((2, 3, 2), 0), ((2, 3, 2), -1), ((4,), 0)],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSoftmax(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        shape, _ = self.shape_axis
        return (numpy.random.uniform(-2, 2, shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        _, axis = self.shape_axis
        return (F.softmax(x, axis=axis),)

    def forward_expected(self, inputs):
        (x,) = inputs
        _, axis = self.shape_axis
        e = numpy.exp(x.astype(numpy.float64))
        return ((e / e.sum(axis=axis, keepdims=True)).astype(self.dtype),)


def test_default_axis_is_1():
    x = numpy.random.uniform(-1, 1, (2, 3, 4))
    numpy.testing.assert_allclose(
        F.softmax(x).array.sum(axis=1), numpy.ones((2, 4)), rtol=1e-12
    )


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_large_inputs_do_not_overflow(dtype):
    x = numpy.array([[1000.0, 0.0, -1000.0], [1000.0, 1000.0, -1000.0]], dtype)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        y = F.softmax(x)
    numpy.testing.assert_array_equal(y.array, [[1, 0, 0], [0.5, 0.5, 0]])


@pytest.mark.parametrize('axis', [2, -3])
def test_axis_out_of_range_is_invalid(axis):
    with pytest.raises(type_check.InvalidType, match='Softmax'):
        F.softmax(numpy.ones((2, 3), numpy.float32), axis=axis)


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match='Softmax'):
        F.softmax(numpy.ones((2, 3), numpy.int32))
