import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _reference(x, indices, ksize, stride, pad, outsize):
    """Puts each input element at its indexed place in its window."""
    kw = ksize[1]
    (sy, sx), (ph, pw) = stride, pad
    out_h, out_w = outsize
    y = numpy.zeros(x.shape[:2] + (out_h, out_w))
    for n, c, a, b in numpy.ndindex(*x.shape):
        j, i = divmod(int(indices[n, c, a, b]), kw)
        row, col = a * sy + j - ph, b * sx + i - pw
        if 0 <= row < out_h and 0 <= col < out_w:
            y[n, c, row, col] += x[n, c, a, b]
    return y


@testing.parameterize(
    *testing.product(
        {
            'case': [
                # ksize, stride, pad, cover_all, outsize, expected outsize
                ((2, 2), (2, 2), (0, 0), True, None, (5, 5)),
                ((2, 2), (2, 2), (0, 0), False, (7, 6), (7, 6)),
                # overlapping windows: values that land on one place are summed
                ((3, 3), (2, 2), (1, 1), True, None, (4, 4)),
                ((3, 2), (2, 1), (1, 0), False, (6, 4), (6, 4)),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestUpsampling2D(testing.FunctionTestCase):
    def setUp(self):
        (
            self.ksize,
            self.stride,
            self.pad,
            self.cover_all,
            self.outsize,
            self.expected_outsize,
        ) = self.case
        kh, kw = self.ksize
        self.indices = numpy.random.randint(0, kh * kw, (2, 3, 3, 3))
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
        indices = device.send(self.indices)
        return (
            F.upsampling_2d(
                x,
                indices,
                self.ksize,
                self.stride,
                self.pad,
                self.outsize,
                self.cover_all,
            ),
        )

    def forward_expected(self, inputs):
        (x,) = inputs
        y = _reference(
            x, self.indices, self.ksize, self.stride, self.pad, self.expected_outsize
        )
        return (y.astype(self.dtype),)


def test_inverts_max_pooling_at_the_maxima():
    x = numpy.random.permutation(2 * 3 * 4 * 6).reshape(2, 3, 4, 6)
    x = x.astype(numpy.float32)
    y, indices = F.max_pooling_2d(x, 2, return_indices=True)
    up = F.upsampling_2d(y, indices, 2, outsize=x.shape[2:]).array
    # Each 2x2 block keeps its maximum in place and is zero elsewhere.
    block_max = x.reshape(2, 3, 2, 2, 3, 2).max(axis=(3, 5))
    expected = numpy.where(x == block_max.repeat(2, axis=2).repeat(2, axis=3), x, 0)
    numpy.testing.assert_array_equal(up, expected)


def test_indices_must_have_the_shape_of_x():
    x = numpy.zeros((1, 1, 2, 2), numpy.float32)
    indices = numpy.zeros((1, 1, 2, 3), numpy.int64)
    with pytest.raises(type_check.InvalidType, match='Upsampling2D'):
        F.upsampling_2d(x, indices, 2)


def test_outsize_must_pool_back_to_the_input_size():
    x = numpy.zeros((1, 1, 2, 2), numpy.float32)
    indices = numpy.zeros((1, 1, 2, 2), numpy.int64)
    with pytest.raises(type_check.InvalidType, match='Upsampling2D'):
        F.upsampling_2d(x, indices, 2, outsize=(6, 4), cover_all=False)


@pytest.mark.parametrize(
    'shape, dtype', [((2, 3, 4), numpy.float32), ((2, 3, 4, 4), numpy.int32)]
)
def test_invalid_inputs(shape, dtype):
    indices = numpy.zeros(shape, numpy.int64)
    with pytest.raises(type_check.InvalidType, match='Upsampling2D'):
        F.upsampling_2d(numpy.zeros(shape, dtype), indices, 2)


def test_empty_batch():
    x = chainerlite.Variable(numpy.zeros((0, 3) + (3, 3), numpy.float32))
    y = F.upsampling_2d(x, numpy.zeros(x.shape, numpy.intp), 2, cover_all=False)
    assert y.shape == (0, 3) + (6, 6)
    F.sum(y).backward()
    assert x.grad.shape == x.shape


def test_negative_index_counts_from_the_end_of_the_window():
    # as Chainer 7.8.1's indexing on NumPy arrays: -1 is the last tap
    x = chainerlite.Variable(
        numpy.arange(1, 5, dtype=numpy.float32).reshape(1, 1, 2, 2)
    )
    wrapped = numpy.array([[[[3, 2], [1, 0]]]])
    y = F.upsampling_2d(x, wrapped - 4, 2, outsize=(4, 4))
    numpy.testing.assert_array_equal(
        y.array, F.upsampling_2d(x.array, wrapped, 2, outsize=(4, 4)).array
    )
    assert y.creator.indexes.min() == -4  # the node keeps them as given
    y.grad = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[[[5, 6], [9, 10]]]])


@pytest.mark.parametrize('index', [-5, 4])
def test_index_outside_the_window_is_index_error(index):
    x = numpy.ones((1, 1, 1, 1), numpy.float32)
    with pytest.raises(IndexError, match='upsampling_2d: index'):
        F.upsampling_2d(x, numpy.full((1, 1, 1, 1), index), 2)
