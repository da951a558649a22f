import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _out_size(size, k, s, p, cover_all):
    if cover_all:
        return (size + 2 * p - k + s - 1) // s + 1
    return (size + 2 * p - k) // s + 1


def _windows(x, ksize, stride, pad, cover_all):
    """Yields (a, b, window) with the window of output (a, b), padded with
    -inf, of shape (n, c, kh, kw)."""
    (kh, kw), (sy, sx), (ph, pw) = ksize, stride, pad
    n, c, h, w = x.shape
    out_h = _out_size(h, kh, sy, ph, cover_all)
    out_w = _out_size(w, kw, sx, pw, cover_all)
    padded = numpy.full((n, c, h + 2 * ph + sy, w + 2 * pw + sx), -numpy.inf)
    padded[:, :, ph : ph + h, pw : pw + w] = x
    for a in range(out_h):
        for b in range(out_w):
            yield a, b, padded[:, :, a * sy : a * sy + kh, b * sx : b * sx + kw]


def _reference(x, ksize, stride, pad, cover_all):
    windows = list(_windows(x, ksize, stride, pad, cover_all))
    out_h = windows[-1][0] + 1
    out_w = windows[-1][1] + 1
    y = numpy.empty(x.shape[:2] + (out_h, out_w), x.dtype)
    indices = numpy.empty(y.shape, numpy.int64)
    for a, b, window in windows:
        flat = window.reshape(window.shape[:2] + (-1,))
        y[:, :, a, b] = flat.max(axis=2)
        indices[:, :, a, b] = flat.argmax(axis=2)
    return y, indices


def _pair(v):
    return v if isinstance(v, tuple) else (v, v)


def _distinct_values(shape, dtype):
    # Values at least 2 / size apart: no ties in a window, and the maximum
    # does not change under the small steps of the numerical gradient.
    size = int(numpy.prod(shape))
    x = numpy.random.permutation(size).reshape(shape) * (2.0 / size) - 1
    return x.astype(dtype)


@testing.parameterize(
    *testing.product(
        {
            'case': [
                # ksize, stride, pad, cover_all
                ((2, 2), (2, 2), (0, 0), True),
                ((3, 3), (2, 2), (1, 1), True),
                ((3, 3), (2, 2), (1, 1), False),
                ((2, 3), (1, 2), (0, 1), True),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestMaxPooling2D(testing.FunctionTestCase):
    def setUp(self):
        self.ksize, self.stride, self.pad, self.cover_all = self.case
        if self.dtype != numpy.float64:
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-3,
                'rtol': 1e-2,
            }
            self.check_double_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-3,
                'rtol': 1e-2,
            }

    def generate_inputs(self):
        return (_distinct_values((2, 3, 5, 5), self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.max_pooling_2d(x, self.ksize, self.stride, self.pad, self.cover_all),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (_reference(x, self.ksize, self.stride, self.pad, self.cover_all)[0],)


def test_stride_defaults_to_ksize():
    x = _distinct_values((1, 2, 4, 6), numpy.float32)
    y = F.max_pooling_2d(x, 2)
    numpy.testing.assert_array_equal(
        y.array, _reference(x, (2, 2), (2, 2), (0, 0), True)[0]
    )


@pytest.mark.parametrize(
    'ksize, stride, pad, cover_all',
    [(2, None, 0, True), (3, 2, 1, True), ((2, 3), (1, 2), (1, 0), False)],
)
def test_return_indices(ksize, stride, pad, cover_all):
    x = _distinct_values((2, 3, 5, 5), numpy.float32)
    y, indices = F.max_pooling_2d(x, ksize, stride, pad, cover_all, return_indices=True)
    expected_y, expected_indices = _reference(
        x, _pair(ksize), _pair(stride or ksize), _pair(pad), cover_all
    )
    numpy.testing.assert_array_equal(y.array, expected_y)
    numpy.testing.assert_array_equal(indices, expected_indices)


def test_gradient_goes_to_the_maximum_of_each_window():
    # 9 is the maximum of two overlapping windows: it gets both gradients.
    x = chainerlite.Variable(
        numpy.array([[[[1, 4, 0], [3, 2, 9], [6, 0, 7]]]], numpy.float64)
    )
    y = F.max_pooling_2d(x, 2, stride=1, cover_all=False)
    y.grad = numpy.ones(y.shape)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[[[0, 1, 0], [0, 0, 2], [1, 0, 0]]]])


def test_invalid_dtype():
    x = numpy.zeros((2, 3, 4, 4), numpy.int32)
    with pytest.raises(type_check.InvalidType, match='MaxPoolingND'):
        F.max_pooling_2d(x, 2)


@pytest.mark.parametrize('shape', [(), (2,), (2, 3, 4), (2, 3, 4, 4, 1)])
def test_input_of_other_rank_is_value_error(shape):
    # as in Chainer 7.8.1, whose max_pooling_2d counts the spatial axes
    with pytest.raises(ValueError, match='max_pooling_2d: .* 2 spatial axes'):
        F.max_pooling_2d(numpy.zeros(shape, numpy.float32), 2)


def test_empty_batch_is_refused():
    # Chainer 7.8.1's max pooling (2-d too) type-checks a non-empty input;
    # its average_pooling_2d does not (test_average_pooling_2d.py).
    x = numpy.zeros((0, 3) + (5, 5), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r'x\.size > 0'):
        F.max_pooling_2d(x, 2)


def test_third_order_gradient_scatters_back_to_the_maxima():
    # The gradient of max pooling scatters, its gradient gathers from the
    # argmax positions and the gradient of that scatters again: check the
    # third-order node's backward (both paths) numerically.
    x = numpy.random.permutation(2 * 3 * 4 * 4).reshape(2, 3, 4, 4) / 10.0
    gy = numpy.random.uniform(-1, 1, (2, 3, 2, 2))

    def gather(ggx):
        xv, gyv = chainerlite.Variable(x), chainerlite.Variable(gy)
        y = F.max_pooling_2d(xv, 2)
        (gx,) = chainerlite.grad([y], [xv], [gyv], enable_double_backprop=True)
        (ggy,) = chainerlite.grad([gx], [gyv], [ggx], enable_double_backprop=True)
        return ggy

    ggx = numpy.random.uniform(-1, 1, x.shape)
    numpy.testing.assert_allclose(
        gather(chainerlite.Variable(ggx)).array, _gather_at_maxima(x, ggx)
    )
    chainerlite.gradient_check.check_backward(
        gather, ggx, numpy.random.uniform(-1, 1, gy.shape)
    )


def _gather_at_maxima(x, a):
    # a at the position of each 2x2 window's maximum of x
    n, c, h, w = x.shape
    windows = x.reshape(n, c, h // 2, 2, w // 2, 2).transpose(0, 1, 2, 4, 3, 5)
    picked = a.reshape(n, c, h // 2, 2, w // 2, 2).transpose(0, 1, 2, 4, 3, 5)
    flat = windows.reshape(n, c, h // 2, w // 2, 4).argmax(axis=-1)
    return numpy.take_along_axis(
        picked.reshape(n, c, h // 2, w // 2, 4), flat[..., None], -1
    )[..., 0]
