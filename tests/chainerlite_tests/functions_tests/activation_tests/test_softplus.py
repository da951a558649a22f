import warnings

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _tolerances(test):
    if test.dtype == numpy.float16:
        test.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
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
            'shape': [(), (3, 2)],
            'beta': [1.0, 2.0],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSoftplus(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        return (numpy.random.uniform(-2, 2, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.softplus(x, beta=self.beta),)

    def forward_expected(self, inputs):
        (x,) = inputs
        bx = self.beta * x.astype(numpy.float64)
        return ((numpy.log(1 + numpy.exp(bx)) / self.beta).astype(self.dtype),)


def test_default_beta_is_1():
    x = numpy.array([-1.0, 0.0, 2.0])
    numpy.testing.assert_allclose(
        F.softplus(x).array, numpy.log1p(numpy.exp(x)), rtol=1e-12
    )


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_large_inputs_are_stable(dtype):
    x = chainerlite.Variable(numpy.array([-1000.0, -10.0, 0.0, 10.0, 1000.0], dtype))
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        y = F.softplus(x)
        y.grad = numpy.ones(5, dtype)
        y.backward()
    assert numpy.isfinite(y.array).all()
    numpy.testing.assert_allclose(
        y.array, [0.0, 4.54e-5, numpy.log(2), 10.0, 1000.0], rtol=1e-2, atol=1e-7
    )
    numpy.testing.assert_allclose(
        x.grad, [0.0, 4.54e-5, 0.5, 1.0, 1.0], rtol=1e-2, atol=1e-7
    )


def test_tiny_values_keep_relative_precision():
    y = F.softplus(numpy.array([-50.0], numpy.float64))
    numpy.testing.assert_allclose(y.array, numpy.exp(-50.0), rtol=1e-12)


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match='Softplus'):
        F.softplus(numpy.arange(3, dtype=numpy.int32))


def test_second_derivative_keeps_float16_precision_where_sigmoid_nears_one():
    # beta s (1 - s) with s = sigmoid(beta x) rounding near 1 in float16:
    # 1 - s is taken as sigmoid(-beta x), so the relative error stays at
    # float16's resolution instead of that of 1 - s
    x64 = numpy.array([5.0, 6.0, 7.0, 8.0])
    x = chainerlite.Variable(x64.astype(numpy.float16))
    (gx,) = chainerlite.grad([F.softplus(x)], [x], enable_double_backprop=True)
    (ggx,) = chainerlite.grad([F.sum(gx)], [x])
    s = 1 / (1 + numpy.exp(-x64.astype(numpy.float16).astype(numpy.float64)))
    numpy.testing.assert_allclose(ggx.array, s * (1 - s), rtol=5e-3)


@pytest.mark.parametrize('beta', [1.0, -2.0])
def test_second_derivative_is_nan_where_beta_x_is_plus_infinity(beta):
    # Chainer's beta e / (1 + e)**2 with e = exp(beta x) is inf / inf there;
    # where beta x is -inf it is 0, and finite points keep their values
    x = chainerlite.Variable(numpy.array([numpy.inf, -numpy.inf, 0.0]))
    (gx,) = chainerlite.grad([F.softplus(x, beta)], [x], enable_double_backprop=True)
    (ggx,) = chainerlite.grad([F.sum(gx)], [x])
    infinite = 0 if beta > 0 else 1
    assert numpy.isnan(ggx.array[infinite])
    assert ggx.array[1 - infinite] == 0
    assert ggx.array[2] == pytest.approx(beta / 4)
