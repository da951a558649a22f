import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _differences(shape, delta):
    # Magnitudes on both sides of delta, away from it: the second
    # derivative jumps there.
    magnitude = numpy.where(
        numpy.random.uniform(size=shape) < 0.5,
        numpy.random.uniform(0.1, 0.8, shape) * delta,
        numpy.random.uniform(1.2, 2.0, shape) * delta,
    )
    return magnitude * numpy.random.choice([-1, 1], shape)


@testing.parameterize(
    *testing.product(
        {
            'shape': [(4, 3), (3, 2, 2)],
            'reduce': ['sum_along_second_axis', 'no'],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestHuberLoss(testing.FunctionTestCase):
    delta = 1.5

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-2,
                'rtol': 1e-2,
            }
            self.check_double_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-2,
                'rtol': 1e-2,
            }
        elif self.dtype == numpy.float32:
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-4,
                'rtol': 1e-3,
            }
            self.check_double_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-3,
                'rtol': 1e-2,
            }

    def generate_inputs(self):
        t = numpy.random.uniform(-1, 1, self.shape)
        x = t + _differences(self.shape, self.delta)
        return x.astype(self.dtype), t.astype(self.dtype)

    def forward(self, inputs, device):
        x, t = inputs
        return (F.huber_loss(x, t, self.delta, reduce=self.reduce),)

    def forward_expected(self, inputs):
        x, t = inputs
        d = abs(x.astype(numpy.float64) - t)
        loss = numpy.where(
            d <= self.delta, 0.5 * d * d, self.delta * (d - 0.5 * self.delta)
        )
        if self.reduce == 'sum_along_second_axis':
            loss = loss.sum(axis=1)
        return (loss.astype(self.dtype),)


def test_default_reduce_sums_along_second_axis():
    x = numpy.array([[3.0, 0.5], [0.0, 0.0]], numpy.float32)
    y = F.huber_loss(x, numpy.zeros_like(x), 1.0)
    numpy.testing.assert_allclose(y.array, [2.5 + 0.125, 0.0])


def test_invalid_reduce():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match="'sum_along_second_axis' and 'no'"):
        F.huber_loss(x, x, 1.0, reduce='mean')


@pytest.mark.parametrize(
    'x, t, reduce',
    [
        (numpy.zeros((2, 3), numpy.float32), numpy.zeros((2, 3), numpy.float64), 'no'),
        (numpy.zeros((2, 3), numpy.float32), numpy.zeros((3, 2), numpy.float32), 'no'),
        (numpy.zeros((2, 3), numpy.int32), numpy.zeros((2, 3), numpy.int32), 'no'),
        (
            numpy.zeros(3, numpy.float32),
            numpy.zeros(3, numpy.float32),
            'sum_along_second_axis',
        ),
    ],
)
def test_invalid_inputs(x, t, reduce):
    with pytest.raises(type_check.InvalidType, match='HuberLoss'):
        F.huber_loss(x, t, 1.0, reduce=reduce)


@pytest.mark.parametrize('shape', [(3,), ()])
def test_summing_along_a_missing_second_axis_is_also_an_axis_error(shape):
    # Chainer 7.8.1 fails in its sum over axis 1
    x = numpy.zeros(shape, numpy.float32)
    with pytest.raises(numpy.exceptions.AxisError) as info:
        F.huber_loss(x, x, 1.0)
    assert isinstance(info.value, type_check.InvalidType)


def test_gradient_at_special_differences_is_the_clipped_difference():
    # At an infinite difference the slope is +-delta; a NaN difference
    # gives NaN; |d| == delta is inside the quadratic zone (slope d).
    x = numpy.array([[numpy.inf, -numpy.inf, numpy.nan, 2.0, -2.0, 0.5]], numpy.float32)
    t = numpy.zeros_like(x)
    xv = chainerlite.Variable(x)
    tv = chainerlite.Variable(t)
    y = F.sum(F.huber_loss(xv, tv, 2.0, reduce='no'))
    y.backward()
    want = [2.0, -2.0, numpy.nan, 2.0, -2.0, 0.5]
    numpy.testing.assert_array_equal(xv.grad[0], want)
    numpy.testing.assert_array_equal(tv.grad[0], -numpy.array(want))


def test_second_order_is_one_inside_and_zero_outside():
    x = chainerlite.Variable(numpy.array([[numpy.inf, 2.0, 3.0, 0.5]]))
    loss = F.sum(F.huber_loss(x, numpy.zeros((1, 4)), 2.0))
    (gx,) = chainerlite.grad([loss], [x], enable_double_backprop=True)
    (ggx,) = chainerlite.grad([F.sum(gx)], [x])
    numpy.testing.assert_array_equal(ggx.array, [[0.0, 1.0, 0.0, 1.0]])


def test_gradient_of_a_0d_input():
    x = chainerlite.Variable(numpy.array(5.0, numpy.float32))
    F.huber_loss(x, numpy.array(0.0, numpy.float32), 1.0, reduce='no').backward()
    assert x.grad.shape == () and x.grad == 1.0
