import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _reference(x, W, b, stride, pad, dilate, groups, outsize):
    """Deconvolution by scattering each input pixel times the filter."""
    x = x.astype(numpy.float64)
    W = W.astype(numpy.float64)
    n, c_in, h, w = x.shape
    _, c_out_g, kh, kw = W.shape
    (sy, sx), (ph, pw), (dy, dx) = stride, pad, dilate
    if outsize is None:
        outsize = (
            sy * (h - 1) + (kh - 1) * dy + 1 - 2 * ph,
            sx * (w - 1) + (kw - 1) * dx + 1 - 2 * pw,
        )
    out_h, out_w = outsize
    c_in_g = c_in // groups
    # Large enough for every scattered position; cropped by the padding.
    y = numpy.zeros(
        (
            n,
            c_out_g * groups,
            out_h + 2 * ph + sy * kh * dy,
            out_w + 2 * pw + sx * kw * dx,
        )
    )
    for c in range(c_in):
        o0 = (c // c_in_g) * c_out_g
        for a in range(h):
            for b_ in range(w):
                for j in range(kh):
                    for i in range(kw):
                        y[:, o0 : o0 + c_out_g, a * sy + j * dy, b_ * sx + i * dx] += (
                            x[:, c, a, b_, None] * W[c, :, j, i]
                        )
    y = y[:, :, ph : ph + out_h, pw : pw + out_w]
    if b is not None:
        y += b.reshape(1, -1, 1, 1)
    return y


@testing.parameterize(
    *testing.product(
        {
            'case': [
                # x size, stride, pad, dilate, groups, outsize
                ((4, 3), (1, 1), (0, 0), (1, 1), 1, None),
                ((4, 3), (2, 1), (1, 0), (1, 2), 1, None),
                ((3, 3), (2, 2), (1, 1), (1, 1), 1, (6, 5)),
                # outsizes one smaller than the default ones: the convolution these
                # deconvolutions are the gradient of uses cover_all
                ((3, 3), (2, 2), (1, 1), (1, 1), 1, (4, 3)),
                ((3, 4), (3, 2), (0, 1), (1, 1), 2, (8, 7)),
                ((3, 3), (1, 2), (1, 1), (2, 1), 2, None),
            ],
            'nobias': [False, True],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_ideep': 'always'}, {'use_cuda': True}])
class TestDeconvolution2D(testing.FunctionTestCase):
    def setUp(self):
        (
            self.in_size,
            self.stride,
            self.pad,
            self.dilate,
            self.groups,
            self.outsize,
        ) = self.case
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 2e-2, 'rtol': 1e-2}
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
            self.check_forward_options = {'atol': 1e-5, 'rtol': 1e-4}
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
        x = numpy.random.uniform(-1, 1, (2, 4) + self.in_size)
        W = numpy.random.uniform(-1, 1, (4, 3, 3, 2))
        inputs = (x, W)
        if not self.nobias:
            inputs += (numpy.random.uniform(-1, 1, 3 * self.groups),)
        return tuple(a.astype(self.dtype) for a in inputs)

    def forward(self, inputs, device):
        return (
            F.deconvolution_2d(
                *inputs,
                stride=self.stride,
                pad=self.pad,
                outsize=self.outsize,
                dilate=self.dilate,
                groups=self.groups,
            ),
        )

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        b = None if self.nobias else inputs[2]
        y = _reference(
            x, W, b, self.stride, self.pad, self.dilate, self.groups, self.outsize
        )
        return (y.astype(self.dtype),)


@pytest.mark.parametrize('stride, pad, ksize', [(1, 0, 3), (2, 1, 3), (3, 1, 2)])
def test_is_the_gradient_of_convolution(stride, pad, ksize):
    # <conv(x, W), g> == <x, deconv(g, W)> for every x and g.
    x = numpy.random.uniform(-1, 1, (2, 3, 7, 6))
    W = numpy.random.uniform(-1, 1, (4, 3, ksize, ksize))
    y = F.convolution_2d(x, W, stride=stride, pad=pad).array
    g = numpy.random.uniform(-1, 1, y.shape)
    gx = F.deconvolution_2d(g, W, stride=stride, pad=pad, outsize=x.shape[2:]).array
    numpy.testing.assert_allclose((y * g).sum(), (x * gx).sum())


def test_outsize_must_match_the_input_size():
    x = numpy.zeros((1, 2, 3, 3), numpy.float32)
    W = numpy.zeros((2, 1, 3, 3), numpy.float32)
    # Convolving 8x8 (k=3, s=2, p=1) gives 4x4 or, with cover_all, 5x5.
    with pytest.raises(type_check.InvalidType, match='Deconvolution2DFunction'):
        F.deconvolution_2d(x, W, stride=2, pad=1, outsize=(8, 8))


@pytest.mark.parametrize(
    'x_shape, w_shape, b_shape, x_dtype, b_dtype, groups',
    [
        ((2, 3, 4, 4), (3, 2, 2, 2), (2,), numpy.int32, numpy.int32, 1),
        ((3, 4, 4), (3, 2, 2, 2), (2,), numpy.float32, numpy.float32, 1),
        ((2, 3, 4, 4), (3, 2, 2), (2,), numpy.float32, numpy.float32, 1),
        ((2, 3, 4, 4), (4, 2, 2, 2), (2,), numpy.float32, numpy.float32, 1),
        ((2, 3, 4, 4), (3, 2, 2, 2), (3,), numpy.float32, numpy.float32, 1),
        ((2, 3, 4, 4), (3, 2, 2, 2), (2,), numpy.float32, numpy.float64, 1),
        ((2, 3, 4, 4), (3, 2, 2, 2), (4,), numpy.float32, numpy.float32, 2),
    ],
)
def test_invalid_inputs(x_shape, w_shape, b_shape, x_dtype, b_dtype, groups):
    x = numpy.zeros(x_shape, x_dtype)
    W = numpy.zeros(w_shape, numpy.float32)
    b = numpy.zeros(b_shape, b_dtype)
    with pytest.raises(type_check.InvalidType, match='Deconvolution2DFunction'):
        F.deconvolution_2d(x, W, b, groups=groups)


def test_grouped_output_has_groups_times_w_shape_1_channels():
    x = numpy.zeros((2, 3, 4, 4), numpy.float32)
    W = numpy.zeros((3, 2, 2, 2), numpy.float32)
    b = numpy.zeros(6, numpy.float32)
    assert F.deconvolution_2d(x, W, b, groups=3).shape == (2, 6, 5, 5)


def test_empty_output_is_an_error():
    x = numpy.zeros((1, 1, 1, 3), numpy.float32)
    W = numpy.zeros((1, 1, 1, 1), numpy.float32)
    with pytest.raises(RuntimeError, match='must be positive'):
        F.deconvolution_2d(x, W, pad=1)
