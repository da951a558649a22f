import math

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite import testing
from chainerlite.utils import type_check


def _position(i, n_in, n_out, align_corners):
    if align_corners:
        return 0.0 if n_out == 1 else i * (n_in - 1) / (n_out - 1)
    return (i + 0.5) * n_in / n_out - 0.5


def _reference(x, shape, mode, align_corners):
    # Pixel by pixel, from the position of each output pixel on the input.
    n_in = x.shape[2:]
    y = numpy.zeros(x.shape[:2] + shape)
    for i in range(shape[0]):
        for j in range(shape[1]):
            p, q = (
                _position(k, a, b, align_corners)
                for k, a, b in zip((i, j), n_in, shape)
            )
            if mode == 'nearest':
                # pixel floor(i * n_in / n_out) whatever align_corners
                r = min(math.floor(i * n_in[0] / shape[0]), n_in[0] - 1)
                c = min(math.floor(j * n_in[1] / shape[1]), n_in[1] - 1)
                y[:, :, i, j] = x[:, :, r, c]
                continue
            p = min(max(p, 0), n_in[0] - 1)
            q = min(max(q, 0), n_in[1] - 1)
            r0, c0 = int(p), int(q)
            r1, c1 = min(r0 + 1, n_in[0] - 1), min(c0 + 1, n_in[1] - 1)
            a, b = p - r0, q - c0
            y[:, :, i, j] = (
                (1 - a) * (1 - b) * x[:, :, r0, c0]
                + (1 - a) * b * x[:, :, r0, c1]
                + a * (1 - b) * x[:, :, r1, c0]
                + a * b * x[:, :, r1, c1]
            )
    return y


@testing.parameterize(
    *testing.product(
        {
            'shapes': [
                ((2, 3, 4, 5), (7, 3)),
                ((1, 2, 3, 3), (3, 3)),
                ((1, 1, 4, 2), (1, 5)),
            ],
            'mode': ['bilinear', 'nearest'],
            'align_corners': [True, False],
            'dtype': [numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestResizeImages(testing.FunctionTestCase):
    def setUp(self):
        self.in_shape, self.out_shape = self.shapes
        self.check_backward_options = {'dtype': numpy.float64}
        self.check_double_backward_options = {'dtype': numpy.float64}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.in_shape)
        return (x.astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (
            F.resize_images(
                x, self.out_shape, mode=self.mode, align_corners=self.align_corners
            ),
        )

    def forward_expected(self, inputs):
        (x,) = inputs
        return (
            _reference(x, self.out_shape, self.mode, self.align_corners).astype(
                self.dtype
            ),
        )


def test_upscale_of_two_by_two():
    x = numpy.array([[[[1.0, 3.0], [2.0, 4.0]]]])
    expected = [[1.0, 2.0, 3.0], [1.5, 2.5, 3.5], [2.0, 3.0, 4.0]]
    for align_corners in (True, False):
        y = F.resize_images(x, (3, 3), align_corners=align_corners)
        numpy.testing.assert_allclose(y.array[0, 0], expected)


def test_large_linear_ramp_is_resampled_exactly():
    x = numpy.arange(40 * 30, dtype=numpy.float64).reshape(1, 1, 40, 30)
    y = F.resize_images(x, (25, 61)).array[0, 0]
    expected = numpy.linspace(0, 39 * 30, 25)[:, None] + numpy.linspace(0, 29, 61)
    numpy.testing.assert_allclose(y, expected, rtol=1e-12, atol=1e-9)


def test_nearest_gradient_sums_over_the_copies():
    x = numpy.random.uniform(-1, 1, (1, 1, 2, 2))
    gradient_check.check_backward(
        lambda x: F.resize_images(x, (5, 4), mode='nearest'),
        x,
        numpy.random.uniform(-1, 1, (1, 1, 5, 4)),
    )


def test_invalid_arguments():
    x = numpy.zeros((1, 1, 2, 2), numpy.float32)
    with pytest.raises(ValueError, match='resize_images'):
        F.resize_images(x, (2, 2), mode='bicubic')
    with pytest.raises(ValueError, match='resize_images'):
        F.resize_images(x, (2,))
    with pytest.raises(type_check.InvalidType, match='ResizeImages'):
        F.resize_images(numpy.zeros((2, 2), numpy.float32), (3, 3))
    with pytest.raises(type_check.InvalidType, match='ResizeImages'):
        F.resize_images(x.astype(numpy.int32), (3, 3))


def test_nearest_takes_the_pixel_at_or_before_the_scaled_index():
    # output pixel i reads input floor(i * h_in / h_out), as Chainer does
    x = numpy.arange(3.0).reshape(1, 1, 1, 3)
    for align_corners in (True, False):
        y = F.resize_images(x, (1, 5), mode='nearest', align_corners=align_corners)
        numpy.testing.assert_array_equal(y.array[0, 0, 0], [0, 0, 1, 1, 2])


def test_non_finite_pixel_reaches_its_neighbours_only():
    # as Chainer: the four corners of a sample are all read (inf * 0 is
    # NaN), pixels farther away are not
    x = numpy.zeros((1, 1, 1, 5), numpy.float32)
    x[0, 0, 0, 2] = numpy.inf
    # (with one row, the second row of each sample is the same row at weight
    # 0, so even the sample on the infinite pixel is NaN)
    y = F.resize_images(x, (1, 5)).array[0, 0, 0]
    numpy.testing.assert_array_equal(y, [0, numpy.nan, numpy.nan, 0, 0])
    x[0, 0, 0, 2] = numpy.nan
    y = F.resize_images(x, (1, 9)).array[0, 0, 0]
    numpy.testing.assert_array_equal(y[[0, 1, 6, 7, 8]], 0)
    assert numpy.isnan(y[2:6]).all()


def test_gradient_of_an_infinite_output_gradient_stays_at_its_corners():
    x = chainerlite.Variable(numpy.zeros((1, 1, 2, 3), numpy.float32))
    y = F.resize_images(x, (2, 3))
    gy = numpy.zeros((1, 1, 2, 3), numpy.float32)
    gy[0, 0, 0, 0] = numpy.inf
    (gx,) = chainerlite.grad([y], [x], [gy])
    # sample (0, 0) sits on pixel (0, 0): its other corners get inf * 0
    expected = numpy.zeros((2, 3), numpy.float32)
    expected[0, 0] = numpy.inf
    expected[0, 1] = expected[1, 0] = expected[1, 1] = numpy.nan
    numpy.testing.assert_array_equal(gx.array[0, 0], expected)


def test_unknown_mode_is_also_an_assertion_error():
    x = numpy.zeros((1, 1, 2, 2), numpy.float32)
    with pytest.raises(AssertionError, match='resize_images'):
        F.resize_images(x, (2, 2), mode='area')


def test_bad_output_shapes_are_also_chainers_exception_types():
    x = numpy.zeros((1, 1, 2, 2), numpy.float32)
    for shape, error in (
        ((2,), IndexError),
        ((2.0, 2), TypeError),
        ((0, 2), ZeroDivisionError),
        ((-1, 2), ValueError),
    ):
        with pytest.raises(error, match='resize_images: output_shape'):
            F.resize_images(x, shape)


def test_finite_and_non_finite_images_take_the_same_weights():
    # the matrix form (all finite) and the corner form agree off the NaN
    rng = numpy.random.RandomState(3)
    x = rng.uniform(-1, 1, (1, 2, 5, 4))
    y = F.resize_images(x, (7, 9), align_corners=False).array
    x[0, 1, 2, 2] = numpy.nan  # the first channel stays finite
    z = F.resize_images(x, (7, 9), align_corners=False).array
    numpy.testing.assert_allclose(z[0, 0], y[0, 0], rtol=1e-12)
    far = ~numpy.isnan(z[0, 1])
    assert far.any() and (~far).any()
    numpy.testing.assert_allclose(z[0, 1][far], y[0, 1][far], rtol=1e-12)
