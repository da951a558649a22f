import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.functions.noise import _random
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {'shape': [(3, 2), ()], 'dtype': [numpy.float16, numpy.float32, numpy.float64]}
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestGaussianWithEps(testing.FunctionTestCase):
    """Gaussian with a given noise: deterministic, so it can be checked."""

    def setUp(self):
        self.eps = numpy.asarray(numpy.random.standard_normal(self.shape), self.dtype)
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
        mean = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        ln_var = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        return mean, ln_var

    def forward(self, inputs, device):
        mean, ln_var = inputs
        return (F.gaussian(mean, ln_var, eps=device.send(self.eps)),)

    def forward_expected(self, inputs):
        mean, ln_var = (v.astype(numpy.float64) for v in inputs)
        y = mean + numpy.exp(ln_var / 2) * self.eps
        return (numpy.asarray(y, self.dtype),)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_samples_have_the_given_distribution(dtype):
    mean = numpy.full(20000, 3, dtype)
    ln_var = numpy.full(20000, numpy.log(4), dtype)
    y, eps = F.gaussian(mean, ln_var, return_eps=True)
    assert y.dtype == dtype and eps.dtype == dtype
    numpy.testing.assert_allclose(y.array, mean + 2 * eps, rtol=1e-2)
    assert abs(y.array.astype(numpy.float64).mean() - 3) < 0.1
    assert abs(y.array.astype(numpy.float64).std() - 2) < 0.1


def test_eps_is_drawn_by_the_random_helper(monkeypatch):
    draws = []

    def normal(xp, shape, dtype):
        draws.append((shape, numpy.dtype(dtype)))
        return numpy.ones(shape, dtype)

    monkeypatch.setattr(_random, 'normal', normal)
    y = F.gaussian(numpy.zeros(2, numpy.float32), numpy.zeros(2, numpy.float32))
    assert draws == [((2,), numpy.dtype(numpy.float32))]
    numpy.testing.assert_array_equal(y.array, [1, 1])


def test_eps_is_reused():
    mean = numpy.zeros(3, numpy.float32)
    y1, eps = F.gaussian(mean, mean, return_eps=True)
    y2 = F.gaussian(mean, mean, eps=eps)
    numpy.testing.assert_array_equal(y1.array, y2.array)


def test_sampling_happens_outside_training_too():
    mean = numpy.zeros(100, numpy.float32)
    with chainerlite.using_config('train', False):
        y = F.gaussian(mean, mean)
    assert (y.array != 0).any()


def test_eps_of_another_shape_is_invalid():
    x = numpy.zeros(3, numpy.float32)
    with pytest.raises(ValueError, match='eps must have the shape'):
        F.gaussian(x, x, eps=numpy.ones(4, numpy.float32))


def test_eps_is_cast_to_the_dtype_of_ln_var():
    x = numpy.zeros(2, numpy.float16)
    y = F.gaussian(x, x, eps=numpy.array([1.0, -1.0], numpy.float64))
    assert y.dtype == numpy.float16
    numpy.testing.assert_array_equal(y.array, [1, -1])


@pytest.mark.parametrize(
    'mean, ln_var',
    [
        (numpy.zeros(3, numpy.int32), numpy.zeros(3, numpy.int32)),
        (numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.float64)),
        (numpy.zeros(3, numpy.float32), numpy.zeros(2, numpy.float32)),
    ],
)
def test_invalid_inputs(mean, ln_var):
    with pytest.raises(type_check.InvalidType, match='Gaussian'):
        F.gaussian(mean, ln_var)
