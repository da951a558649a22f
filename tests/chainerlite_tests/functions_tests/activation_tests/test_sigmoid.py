import warnings

import numpy
import pytest

import chainerlite
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
        {'shape': [(), (3, 2)], 'dtype': [numpy.float16, numpy.float32, numpy.float64]}
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSigmoid(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        return (numpy.random.uniform(-3, 3, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.sigmoid(x),)

    def forward_expected(self, inputs):
        (x,) = inputs
        y = 1 / (1 + numpy.exp(-x.astype(numpy.float64)))
        return (y.astype(self.dtype),)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_large_inputs_are_stable(dtype):
    x = chainerlite.Variable(numpy.array([-1000.0, 0.0, 1000.0], dtype))
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        y = F.sigmoid(x)
        y.grad = numpy.ones(3, dtype)
        y.backward()
    numpy.testing.assert_array_equal(y.array, [0.0, 0.5, 1.0])
    numpy.testing.assert_array_equal(x.grad, [0.0, 0.25, 0.0])


def test_left_tail_keeps_relative_precision():
    # 1 - sigmoid(40) rounds to 0 in float64; sigmoid(-40) must not.
    y = F.sigmoid(numpy.array([-40.0]))
    numpy.testing.assert_allclose(y.array, 1 / (1 + numpy.exp(40.0)), rtol=1e-12)


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match='Sigmoid'):
        F.sigmoid(numpy.arange(3, dtype=numpy.int32))


def test_float16_rounds_as_chainer():
    # Chainer 7.8.1 computes tanh(x / 2) / 2 + 1/2 with each step rounded
    # to float16, and the gradient as (gy * y) * (1 - y); bits it gives
    x = numpy.array([2.0, -0.0628662109375, 0.8349609375, -10.3125], numpy.float16)
    v = chainerlite.Variable(x)
    y = F.sigmoid(v)
    (gx,) = chainerlite.grad([y], [v], [numpy.full(4, -2.5, numpy.float16)])
    expect_y = numpy.array([0.880859375, 0.484375, 0.697265625, 0.0], numpy.float16)
    assert y.array.view(numpy.uint16).tolist() == expect_y.view(numpy.uint16).tolist()
    # (gy * y) * (1 - y) in float16, written out
    gy = numpy.float16(-2.5)
    expect_gx = (gy * expect_y) * (numpy.float16(1) - expect_y)
    assert gx.array.view(numpy.uint16).tolist() == expect_gx.view(numpy.uint16).tolist()
