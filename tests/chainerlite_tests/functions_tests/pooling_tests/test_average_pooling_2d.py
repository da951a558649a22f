import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _reference(x, ksize, stride, pad, pad_value):
    """Average of each window; padding counts as 0 or, for pad_value=None,
    is left out."""
    (kh, kw), (sy, sx), (ph, pw) = ksize, stride, pad
    n, c, h, w = x.shape
    out_h = (h + 2 * ph - kh) // sy + 1
    out_w = (w + 2 * pw - kw) // sx + 1
    x = x.astype(numpy.float64)
    y = numpy.empty((n, c, out_h, out_w))
    for a in range(out_h):
        for b in range(out_w):
            top, left = a * sy - ph, b * sx - pw
            rows = slice(max(top, 0), min(top + kh, h))
            cols = slice(max(left, 0), min(left + kw, w))
            window = x[:, :, rows, cols]
            count = kh * kw if pad_value == 0 else window[0, 0].size
            y[:, :, a, b] = window.sum(axis=(2, 3)) / count
    return y


@testing.parameterize(
    *testing.product(
        {
            'case': [
                # ksize, stride, pad
                ((2, 2), (2, 2), (0, 0)),
                ((3, 3), (2, 2), (1, 1)),
                ((2, 3), (1, 2), (1, 0)),
            ],
            'pad_value': [0, None],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestAveragePooling2D(testing.FunctionTestCase):
    def setUp(self):
        self.ksize, self.stride, self.pad = self.case
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
        return (numpy.random.uniform(-1, 1, (2, 3, 5, 5)).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (
            F.average_pooling_2d(
                x, self.ksize, self.stride, self.pad, pad_value=self.pad_value
            ),
        )

    def forward_expected(self, inputs):
        (x,) = inputs
        y = _reference(x, self.ksize, self.stride, self.pad, self.pad_value)
        return (y.astype(self.dtype),)


def test_stride_defaults_to_ksize_and_no_cover_all():
    x = numpy.random.uniform(-1, 1, (1, 2, 5, 5))
    y = F.average_pooling_2d(x, 2)
    assert y.shape == (1, 2, 2, 2)
    numpy.testing.assert_allclose(y.array, _reference(x, (2, 2), (2, 2), (0, 0), 0))


def test_pad_value_must_be_zero_or_none():
    with pytest.raises(ValueError, match='pad_value'):
        F.average_pooling_2d(numpy.zeros((1, 1, 2, 2), numpy.float32), 2, pad_value=1)


@pytest.mark.parametrize(
    'shape, dtype', [((2, 3, 4), numpy.float32), ((2, 3, 4, 4), numpy.int32)]
)
def test_invalid_inputs(shape, dtype):
    with pytest.raises(type_check.InvalidType, match='AveragePooling2D'):
        F.average_pooling_2d(numpy.zeros(shape, dtype), 2)


def test_empty_batch():
    x = chainerlite.Variable(numpy.zeros((0, 3) + (5, 5), numpy.float32))
    y = F.average_pooling_2d(x, 2, pad=1)
    assert y.shape == (0, 3) + (3, 3)
    F.sum(y).backward()
    assert x.grad.shape == x.shape


@pytest.mark.parametrize('cover_all', [False, True])
def test_node_takes_chainers_arguments(cover_all):
    # Chainer 7.8.1's AveragePooling2D(ksize, stride, pad, cover_all=True,
    # return_indices=False) pools as without cover_all either way (recorded:
    # 6x6 input, ksize 3, stride 2 gives 2x2 of [7, 9, 19, 21]).
    from chainerlite.functions.pooling.average_pooling_2d import AveragePooling2D

    x = numpy.arange(36, dtype=numpy.float32).reshape(1, 1, 6, 6)
    node = AveragePooling2D(3, 2, 0, cover_all, True)
    assert node.return_indices is True and node.cover_all is False
    y = node.apply((x,))[0]
    numpy.testing.assert_array_equal(y.array.ravel(), [7, 9, 19, 21])
