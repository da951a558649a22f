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
class TestLogSoftmax(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        shape, _ = self.shape_axis
        return (numpy.random.uniform(-2, 2, shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        _, axis = self.shape_axis
        return (F.log_softmax(x, axis=axis),)

    def forward_expected(self, inputs):
        (x,) = inputs
        _, axis = self.shape_axis
        x64 = x.astype(numpy.float64)
        e = numpy.exp(x64)
        y = numpy.log(e / e.sum(axis=axis, keepdims=True))
        return (y.astype(self.dtype),)


def test_default_axis_is_1():
    x = numpy.random.uniform(-1, 1, (2, 3, 4))
    numpy.testing.assert_allclose(
        numpy.exp(F.log_softmax(x).array).sum(axis=1), numpy.ones((2, 4)), rtol=1e-12
    )


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_large_inputs_are_stable(dtype):
    # log(softmax(x)) would give -inf for the small entries.
    x = numpy.array([[0.0, 1000.0, 2000.0], [-3000.0, 0.0, 0.0]], dtype)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        y = F.log_softmax(x)
    numpy.testing.assert_allclose(
        y.array,
        [
            [-2000.0, -1000.0, 0.0],
            [-3000.0 - numpy.log(2), -numpy.log(2), -numpy.log(2)],
        ],
        rtol=1e-3,
    )


@pytest.mark.parametrize('axis', [2, -3])
def test_axis_out_of_range_is_invalid(axis):
    with pytest.raises(type_check.InvalidType, match='LogSoftmax'):
        F.log_softmax(numpy.ones((2, 3), numpy.float32), axis=axis)


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match='LogSoftmax'):
        F.log_softmax(numpy.ones((2, 3), numpy.int32))
