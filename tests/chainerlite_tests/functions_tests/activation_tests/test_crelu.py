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
class TestCReLU(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        shape, _ = self.shape_axis
        x = numpy.random.uniform(-1, 1, shape)
        x[numpy.abs(x) < 0.1] = -0.5
        return (x.astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        _, axis = self.shape_axis
        return (F.crelu(x, axis=axis),)

    def forward_expected(self, inputs):
        (x,) = inputs
        _, axis = self.shape_axis
        return (
            numpy.concatenate((numpy.maximum(x, 0), numpy.maximum(-x, 0)), axis=axis),
        )


def test_default_axis_is_1():
    x = numpy.array([[[-1.0], [2.0]]], numpy.float32)
    assert F.crelu(x).shape == (1, 4, 1)
    numpy.testing.assert_array_equal(F.crelu(x).array[0, :, 0], [0.0, 2.0, 1.0, 0.0])


def test_axis_must_be_int():
    with pytest.raises(TypeError, match='axis'):
        F.crelu(numpy.ones((2, 3), numpy.float32), axis=1.0)


@pytest.mark.parametrize('axis', [2, -3])
def test_axis_out_of_range_is_invalid(axis):
    with pytest.raises(type_check.InvalidType, match='CReLU'):
        F.crelu(numpy.ones((2, 3), numpy.float32), axis=axis)


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match='CReLU'):
        F.crelu(numpy.ones((2, 3), numpy.int32))


@pytest.mark.parametrize(
    'dtype, negative_zero_kept',
    [(numpy.float16, False), (numpy.float32, True), (numpy.float64, True)],
)
def test_sign_of_a_zero_output_is_chainers(dtype, negative_zero_kept):
    # max(0, x) and max(0, -x) as NumPy's maximum computes them in Chainer
    # 7.8.1: x's zero (and -x's) is kept in float32/64, +0 in float16
    y = F.crelu(numpy.array([[-0.0, 0.0]], dtype)).array
    assert not y.any()
    k = negative_zero_kept
    assert numpy.signbit(y).tolist() == [[k, False, False, k]]
