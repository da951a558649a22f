import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _dft(z, sign):
    # The transform written out as a matrix product.
    n = z.shape[-1]
    k = numpy.arange(n)
    w = numpy.exp(sign * 2j * numpy.pi * numpy.outer(k, k) / n)
    return z @ w.T


@testing.parameterize(
    *testing.product(
        {
            'shape': [(4,), (2, 3)],
            'dtype': [numpy.float32, numpy.float64],
            'method': ['fft', 'ifft'],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestFFT(testing.FunctionTestCase):
    def setUp(self):
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
        return tuple(
            numpy.random.uniform(-1, 1, self.shape).astype(self.dtype) for _ in range(2)
        )

    def forward(self, inputs, device):
        return getattr(F, self.method)(inputs)

    def forward_expected(self, inputs):
        real, imag = inputs
        z = real.astype(numpy.float64) + 1j * imag
        if self.method == 'fft':
            y = _dft(z, -1)
        else:
            y = _dft(z, 1) / z.shape[-1]
        return y.real.astype(self.dtype), y.imag.astype(self.dtype)


def test_one_output_unused_in_backward():
    x = numpy.random.uniform(-1, 1, (2, 4))
    real, _ = F.fft((x, numpy.zeros_like(x)))
    F.sum(real).backward()


def test_ifft_inverts_fft():
    x = numpy.random.uniform(-1, 1, (2, 5))
    y = numpy.random.uniform(-1, 1, (2, 5))
    real, imag = F.ifft(F.fft((x, y)))
    numpy.testing.assert_allclose(real.array, x, atol=1e-12)
    numpy.testing.assert_allclose(imag.array, y, atol=1e-12)


def test_invalid_inputs():
    x = numpy.zeros((3,), numpy.float32)
    # what does not unpack into two: Chainer 7.8.1's exception types
    with pytest.raises(ValueError, match='fft: x must be a pair'):
        F.fft(x)
    with pytest.raises(TypeError, match='ifft: x must be a pair'):
        F.ifft(numpy.zeros((), numpy.float32))
    with pytest.raises(type_check.InvalidType, match='FFT'):
        F.fft((x, numpy.zeros((4,), numpy.float32)))
    with pytest.raises(type_check.InvalidType):
        F.ifft((x, x.astype(numpy.float64)))


@pytest.mark.parametrize('func', [F.fft, F.ifft])
def test_two_rows_unpack_into_real_and_imag(func):
    # as in Chainer 7.8.1: an array or Variable of two rows is (real, imag)
    z = numpy.random.uniform(-1, 1, (2, 3, 4))
    for x in (z, chainerlite.Variable(z)):
        real, imag = func(x)
        want_real, want_imag = func((z[0], z[1]))
        numpy.testing.assert_array_equal(real.array, want_real.array)
        numpy.testing.assert_array_equal(imag.array, want_imag.array)
