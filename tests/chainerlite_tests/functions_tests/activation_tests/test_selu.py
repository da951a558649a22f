import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check

ALPHA = 1.6732632423543772848170429916717
SCALE = 1.0507009873554804934193349852946


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
            'params': [(ALPHA, SCALE), (0.5, 2.0)],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSELU(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        x = numpy.random.uniform(-2, 2, self.shape)
        x[numpy.abs(x) < 0.1] = 0.5
        return (x.astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        alpha, scale = self.params
        return (F.selu(x, alpha=alpha, scale=scale),)

    def forward_expected(self, inputs):
        (x,) = inputs
        alpha, scale = self.params
        x64 = x.astype(numpy.float64)
        y = scale * numpy.where(x64 >= 0, x64, alpha * (numpy.exp(x64) - 1))
        return (y.astype(self.dtype),)


def test_defaults_are_the_self_normalizing_constants():
    x = numpy.array([-1.0, 2.0])
    expected = [SCALE * ALPHA * numpy.expm1(-1.0), SCALE * 2.0]
    numpy.testing.assert_allclose(F.selu(x).array, expected, rtol=1e-12)


def test_integer_input_is_invalid():
    # selu is scale * elu, as in Chainer: the ELU node reports the error.
    with pytest.raises(type_check.InvalidType, match='ELU'):
        F.selu(numpy.arange(3, dtype=numpy.int32))
