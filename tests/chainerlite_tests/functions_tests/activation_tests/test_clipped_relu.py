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


def _away_from_kinks(shape, z, dtype):
    # Values on both sides of 0 and of z, none within 0.1 of either kink.
    x = numpy.random.uniform(-0.5 * z, 1.5 * z, shape)
    for kink in (0, z):
        near = numpy.abs(x - kink) < 0.1
        x[near] = kink + 0.2
    return x.astype(dtype)


@testing.parameterize(
    *testing.product(
        {
            'shape': [(), (3, 4)],
            'z': [0.75, 20.0],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestClippedReLU(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        return (_away_from_kinks(self.shape, self.z, self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.clipped_relu(x, z=self.z),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (numpy.minimum(numpy.maximum(x, 0), self.z).astype(self.dtype),)


@testing.parameterize(
    *testing.product(
        {'shape': [(), (3, 4)], 'dtype': [numpy.float16, numpy.float32, numpy.float64]}
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestReLU6(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        return (_away_from_kinks(self.shape, 6.0, self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.relu6(x),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (numpy.minimum(numpy.maximum(x, 0), 6).astype(self.dtype),)


def test_default_z_is_20():
    x = numpy.array([-1.0, 15.0, 25.0], numpy.float32)
    numpy.testing.assert_array_equal(F.clipped_relu(x).array, [0, 15, 20])


def test_z_must_be_float():
    with pytest.raises(TypeError, match='float'):
        F.clipped_relu(numpy.ones(3, numpy.float32), z=10)


def test_z_must_be_positive():
    with pytest.raises(ValueError, match='positive'):
        F.clipped_relu(numpy.ones(3, numpy.float32), z=-1.0)


@pytest.mark.parametrize('func', [F.clipped_relu, F.relu6])
def test_integer_input_is_invalid(func):
    with pytest.raises(type_check.InvalidType, match='ClippedReLU'):
        func(numpy.arange(3, dtype=numpy.int32))


@pytest.mark.parametrize('z', [0.0, -1.0])
def test_z_not_positive_is_also_assertion_error(z):
    x = numpy.ones(3, numpy.float32)
    with pytest.raises(ValueError, match='clipped_relu: z must be positive') as info:
        F.clipped_relu(x, z)
    assert isinstance(info.value, AssertionError)  # Chainer 7.8.1 asserts


@pytest.mark.parametrize('func', [F.clipped_relu, F.relu6])
@pytest.mark.parametrize(
    'dtype, negative_zero_kept',
    [(numpy.float16, False), (numpy.float32, True), (numpy.float64, True)],
)
def test_sign_of_a_zero_input_is_chainers(func, dtype, negative_zero_kept):
    # Chainer 7.8.1 computes min(max(0, x), z) with NumPy, whose maximum
    # keeps x's -0 in float32/64 and gives the +0 in float16
    x = numpy.array([-0.0, 0.0, -2.0, 3.0], dtype)
    y = func(x).array
    assert not y[:3].any() and y[3] == 3
    assert numpy.signbit(y).tolist() == [negative_zero_kept, False, False, False]
