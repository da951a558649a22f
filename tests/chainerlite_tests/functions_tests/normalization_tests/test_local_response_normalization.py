import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {
            'shape': [(2, 7, 3), (2, 4, 2, 2), (3, 6)],
            'params': [
                {},
                {'n': 3, 'k': 1, 'alpha': 0.5, 'beta': 0.6},
                {'n': 4, 'k': 1.5, 'alpha': 0.3, 'beta': 1.2},
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLocalResponseNormalization(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 5e-3,
                'rtol': 5e-3,
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
                'atol': 1e-4,
                'rtol': 1e-3,
            }

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.local_response_normalization(x, **self.params),)

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        n = self.params.get('n', 5)
        k = self.params.get('k', 2)
        alpha = self.params.get('alpha', 1e-4)
        beta = self.params.get('beta', 0.75)
        y = numpy.empty_like(x)
        channels = x.shape[1]
        for i in range(channels):
            lo, hi = max(0, i - n // 2), min(channels, i + n // 2 + 1)
            s = (x[:, lo:hi] ** 2).sum(axis=1)
            y[:, i] = x[:, i] / (k + alpha * s) ** beta
        return (y.astype(self.dtype),)


@pytest.mark.parametrize('shape, dtype', [((3,), numpy.float32), ((2, 3), numpy.int32)])
def test_invalid_inputs(shape, dtype):
    with pytest.raises(type_check.InvalidType, match='LocalResponseNormalization'):
        F.local_response_normalization(numpy.ones(shape, dtype))


@pytest.mark.parametrize('n', [1, 0, -1, -4])
def test_window_under_two_channels_is_the_channel_alone(n):
    # Chainer takes any n below 2 (negative too) as a window of one channel
    x = numpy.array([[3.0, -1.0, 2.0]], numpy.float32)
    x_var = chainerlite.Variable(x)
    y = F.local_response_normalization(x_var, n=n, k=1, alpha=1, beta=1)
    numpy.testing.assert_allclose(y.array, x / (1 + x * x), rtol=1e-6)
    y.grad = numpy.ones_like(x)
    y.backward()
    # d/dx x / (1 + x^2) = (1 - x^2) / (1 + x^2)^2
    numpy.testing.assert_allclose(x_var.grad, (1 - x * x) / (1 + x * x) ** 2, rtol=1e-6)
