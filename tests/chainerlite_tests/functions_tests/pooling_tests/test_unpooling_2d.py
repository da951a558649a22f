import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _reference(x, ksize, stride, pad, outsize):
    """Copies each input element over its window of the output."""
    (kh, kw), (sy, sx), (ph, pw) = ksize, stride, pad
    n, c, h, w = x.shape
    out_h, out_w = outsize
    y = numpy.zeros((n, c, out_h, out_w))
    for a in range(h):
        for b in range(w):
            for j in range(kh):
                for i in range(kw):
                    row, col = a * sy + j - ph, b * sx + i - pw
                    if 0 <= row < out_h and 0 <= col < out_w:
                        y[:, :, row, col] += x[:, :, a, b]
    return y


@testing.parameterize(
    *testing.product(
        {
            'case': [
                # ksize, stride, pad, cover_all, outsize, expected outsize
                ((2, 2), (2, 2), (0, 0), True, None, (5, 5)),
                ((2, 2), (2, 2), (0, 0), False, None, (6, 6)),
                ((3, 2), (2, 1), (1, 0), True, None, (4, 4)),
                ((2, 2), (2, 2), (0, 0), False, (7, 6), (7, 6)),
                ((3, 3), (2, 2), (1, 1), True, (5, 4), (5, 4)),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestUnpooling2D(testing.FunctionTestCase):
    def setUp(self):
        (
            self.ksize,
            self.stride,
            self.pad,
            self.cover_all,
            self.outsize,
            self.expected_outsize,
        ) = self.case
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 5e-3,
                'rtol': 5e-3,
            }
            self.check_double_backward_options = {
                'dtype': numpy.float64,
                'atol': 5e-3,
                'rtol': 5e-3,
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
        return (numpy.random.uniform(-1, 1, (2, 3, 3, 3)).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (
            F.unpooling_2d(
                x, self.ksize, self.stride, self.pad, self.outsize, self.cover_all
            ),
        )

    def forward_expected(self, inputs):
        (x,) = inputs
        y = _reference(x, self.ksize, self.stride, self.pad, self.expected_outsize)
        return (y.astype(self.dtype),)


def test_stride_defaults_to_ksize():
    x = numpy.random.uniform(-1, 1, (1, 2, 2, 3))
    y = F.unpooling_2d(x, 2, cover_all=False)
    numpy.testing.assert_array_equal(y.array, x.repeat(2, axis=2).repeat(2, axis=3))


def test_outsize_must_pool_back_to_the_input_size():
    x = numpy.zeros((1, 1, 3, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match='Unpooling2D'):
        F.unpooling_2d(x, 2, outsize=(8, 6), cover_all=False)


@pytest.mark.parametrize(
    'shape, dtype', [((2, 3, 4), numpy.float32), ((2, 3, 4, 4), numpy.int32)]
)
def test_invalid_inputs(shape, dtype):
    with pytest.raises(type_check.InvalidType, match='Unpooling2D'):
        F.unpooling_2d(numpy.zeros(shape, dtype), 2)


def test_empty_batch():
    x = chainerlite.Variable(numpy.zeros((0, 3) + (3, 3), numpy.float32))
    y = F.unpooling_2d(x, 2, cover_all=False)
    assert y.shape == (0, 3) + (6, 6)
    F.sum(y).backward()
    assert x.grad.shape == x.shape
