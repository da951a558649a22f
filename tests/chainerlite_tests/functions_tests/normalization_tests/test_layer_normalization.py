import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {
            'shape': [(3, 4), (1, 6)],
            'eps': [1e-5, 0.5],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLayerNormalization(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 5e-2,
                'rtol': 5e-2,
            }
            self.check_double_backward_options = {
                'dtype': numpy.float64,
                'atol': 5e-2,
                'rtol': 5e-2,
            }
        elif self.dtype == numpy.float32:
            self.check_forward_options = {'atol': 1e-4, 'rtol': 1e-4}
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-3,
                'rtol': 1e-3,
            }
            self.check_double_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-3,
                'rtol': 1e-2,
            }
        else:
            self.check_backward_options = {'atol': 1e-4, 'rtol': 1e-3}
            self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape)
        gamma = numpy.random.uniform(0.5, 1.5, self.shape[1])
        beta = numpy.random.uniform(-1, 1, self.shape[1])
        return tuple(a.astype(self.dtype) for a in (x, gamma, beta))

    def forward(self, inputs, device):
        return (F.layer_normalization(*inputs, eps=self.eps),)

    def forward_expected(self, inputs):
        x, gamma, beta = (a.astype(numpy.float64) for a in inputs)
        y = numpy.empty_like(x)
        for i, row in enumerate(x):
            y[i] = (row - row.mean()) / numpy.sqrt(row.var() + self.eps)
        return ((y * gamma + beta).astype(self.dtype),)


@pytest.mark.parametrize(
    'x_shape, gamma_shape, beta_shape, dtypes',
    [
        ((2, 3, 4), (3,), (3,), None),
        ((2, 3), (4,), (4,), None),
        ((2, 3), (3,), (2,), None),
        ((2, 3), (3, 1), (3, 1), None),
        ((2, 3), (3,), (3,), (numpy.float32, numpy.float64, numpy.float32)),
        ((2, 3), (3,), (3,), (numpy.int32,) * 3),
    ],
)
def test_invalid_inputs(x_shape, gamma_shape, beta_shape, dtypes):
    x_dtype, g_dtype, b_dtype = dtypes or (numpy.float32,) * 3
    x = numpy.zeros(x_shape, x_dtype)
    gamma = numpy.zeros(gamma_shape, g_dtype)
    beta = numpy.zeros(beta_shape, b_dtype)
    with pytest.raises(type_check.InvalidType, match='LayerNormalization'):
        F.layer_normalization(x, gamma, beta)


def test_0d_inputs_fail_the_rank_check():
    x = numpy.zeros((), numpy.float32)
    with pytest.raises(type_check.InvalidType, match='ndim') as info:
        F.layer_normalization(x, x, x)
    assert not isinstance(info.value, IndexError)
