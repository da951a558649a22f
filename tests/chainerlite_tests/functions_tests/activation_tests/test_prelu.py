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
        {
            'shapes': [
                ((2, 3), (3,)),
                ((2, 3, 2), (3,)),
                ((2, 3, 2), (3, 2)),
                ((2, 3), ()),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestPReLU(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        x_shape, W_shape = self.shapes
        x = numpy.random.uniform(-1, 1, x_shape)
        x[numpy.abs(x) < 0.1] = 0.5
        W = numpy.random.uniform(-1, 1, W_shape)
        return x.astype(self.dtype), W.astype(self.dtype)

    def forward(self, inputs, device):
        x, W = inputs
        return (F.prelu(x, W),)

    def forward_expected(self, inputs):
        x, W = inputs
        # W covers the axes right after the batch axis.
        W = W.reshape((1,) + W.shape + (1,) * (x.ndim - W.ndim - 1))
        return (numpy.where(x >= 0, x, W * x).astype(self.dtype),)


@pytest.mark.parametrize(
    'x_shape, W_shape, W_dtype',
    [
        ((2, 3), (3,), numpy.float64),  # dtype differs from x
        ((2, 3), (2,), numpy.float32),  # W does not match axis 1
        ((3,), (3,), numpy.float32),  # no batch axis left
    ],
)
def test_bad_W_is_invalid(x_shape, W_shape, W_dtype):
    x = numpy.ones(x_shape, numpy.float32)
    with pytest.raises(type_check.InvalidType, match='PReLU'):
        F.prelu(x, numpy.ones(W_shape, W_dtype))


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match='PReLU'):
        F.prelu(numpy.ones((2, 3), numpy.int32), numpy.ones(3, numpy.int32))


def test_nan_input_gradients_follow_chainer():
    # First order: a NaN input counts as negative (W's gradient is NaN
    # there, x's is gy * W). Second order: it adds nothing to x's gradient
    # through W's gradient.
    x = chainerlite.Variable(numpy.array([[numpy.nan, -2.0, 3.0]], numpy.float32))
    W = chainerlite.Variable(numpy.array([0.5, 0.25, 2.0], numpy.float32))
    gx, gW = chainerlite.grad(
        [F.sum(F.prelu(x, W))], [x, W], enable_double_backprop=True
    )
    numpy.testing.assert_array_equal(gx.array, [[0.5, 0.25, 1.0]])
    numpy.testing.assert_array_equal(gW.array, [numpy.nan, -2.0, 0.0])
    (ggx,) = chainerlite.grad([F.sum(gW) + F.sum(gx * 0)], [x])
    numpy.testing.assert_array_equal(ggx.array, [[0.0, 1.0, 0.0]])


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_second_order_zeros_have_chainers_sign(dtype):
    # Chainer 7.8.1 masks W's output gradient by a product with (x < 0),
    # so where x >= 0 it leaves a zero of that gradient's sign, and gives
    # W a +0 second-order gradient there. Here x = -0 (non-negative).
    def arr(*v):
        return numpy.array(v, dtype)

    x = chainerlite.Variable(arr(-0.0, 0.0, -1.0, 2.0).reshape(1, 4))
    W = chainerlite.Variable(arr(0.25, -0.0, 0.0, 0.5))
    gy = chainerlite.Variable(arr(-0.0, 0.0, -1.0, 1.0).reshape(1, 4))
    y = F.prelu(x, W)
    gx, gW = chainerlite.grad([y], [x, W], [gy], enable_double_backprop=True)
    ggx = chainerlite.Variable(arr(-0.0, 0.0, -1.0, 1.0).reshape(1, 4))
    ggW = chainerlite.Variable(arr(-0.0, 0.0, -0.0, 1.0))
    d_x, d_W, d_gy = chainerlite.grad([gx, gW], [x, W, gy], [ggx, ggW])
    # d_x = gy * ggW * (x < 0); d_W = ggx * gy where x < 0, +0 elsewhere;
    # d_gy = x * ggW * (x < 0) + (ggx or W * ggx)
    assert d_x.array.tolist() == [[0.0, 0.0, 0.0, 0.0]]
    assert numpy.signbit(d_x.array).tolist() == [[False, False, False, False]]
    assert d_W.array.tolist() == [0.0, 0.0, 1.0, 0.0]
    assert not numpy.signbit(d_W.array).any()
    assert d_gy.array.tolist() == [[0.0, 0.0, 0.0, 1.0]]
    assert numpy.signbit(d_gy.array).tolist() == [[False, False, False, False]]


def test_third_order_gradient_of_w_has_w_shape():
    x = chainerlite.Variable(numpy.array([[-1.0, 2.0], [-3.0, -0.5]]))
    W = chainerlite.Variable(numpy.array([0.5, 0.25]))
    loss = F.sum(F.prelu(x, W) ** 2)
    (gx,) = chainerlite.grad([loss], [x], enable_double_backprop=True)
    (gW,) = chainerlite.grad([F.sum(gx**2)], [W], enable_double_backprop=True)
    (gWW,) = chainerlite.grad([F.sum(gW)], [W])
    # gx = 2 W^2 x where x < 0, so sum(gx^2) has W-gradient 16 W^3 sum x^2
    # and that one 48 W^2 sum x^2 (over the negative x of each column)
    numpy.testing.assert_allclose(gW.array, [16 * 0.125 * 10, 16 * 0.25**3 * 0.25])
    numpy.testing.assert_allclose(gWW.array, [48 * 0.25 * 10, 48 * 0.0625 * 0.25])
