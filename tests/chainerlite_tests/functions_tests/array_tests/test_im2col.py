import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _tolerances(test):
    if test.dtype == numpy.float16:
        test.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 5e-3,
            'rtol': 1e-2,
        }
        test.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 5e-3,
            'rtol': 1e-2,
        }
    elif test.dtype == numpy.float32:
        test.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-4,
            'rtol': 1e-3,
        }
        test.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-4,
            'rtol': 1e-3,
        }


def _outsize(size, k, s, p, cover_all, d):
    extent = (k - 1) * d + 1
    return (size + 2 * p - extent + (s - 1 if cover_all else 0)) // s + 1


def im2col_reference(x, ksize, stride, pad, cover_all, dilate):
    n, c, h, w = x.shape
    (kh, kw), (sy, sx), (ph, pw), (dy, dx) = ksize, stride, pad, dilate
    out_h = _outsize(h, kh, sy, ph, cover_all, dy)
    out_w = _outsize(w, kw, sx, pw, cover_all, dx)
    y = numpy.zeros((n, c, kh, kw, out_h, out_w), x.dtype)
    for j in range(kh):
        for i in range(kw):
            for oy in range(out_h):
                for ox in range(out_w):
                    iy = oy * sy + j * dy - ph
                    ix = ox * sx + i * dx - pw
                    if 0 <= iy < h and 0 <= ix < w:
                        y[:, :, j, i, oy, ox] = x[:, :, iy, ix]
    return y.reshape(n, c * kh * kw, out_h, out_w)


def _pair(v):
    return v if isinstance(v, tuple) else (v, v)


@testing.parameterize(
    *testing.product(
        {
            'params': [
                # ksize, stride, pad, cover_all, dilate
                (2, 1, 0, False, 1),
                ((3, 2), (2, 3), (1, 2), True, 1),
                ((2, 3), (2, 1), (1, 0), False, 2),
                (3, 2, 0, True, 1),
                (2, 2, 1, True, (1, 2)),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestIm2Col(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, (2, 2, 5, 6)).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        ksize, stride, pad, cover_all, dilate = self.params
        return (F.im2col(x, ksize, stride, pad, cover_all, dilate),)

    def forward_expected(self, inputs):
        (x,) = inputs
        ksize, stride, pad, cover_all, dilate = self.params
        return (
            im2col_reference(
                x, _pair(ksize), _pair(stride), _pair(pad), cover_all, _pair(dilate)
            ),
        )


def test_defaults():
    x = numpy.arange(9, dtype=numpy.float32).reshape(1, 1, 3, 3)
    y = F.im2col(x, 2)
    numpy.testing.assert_array_equal(
        y.array, im2col_reference(x, (2, 2), (1, 1), (0, 0), False, (1, 1))
    )


@pytest.mark.parametrize(
    'x, ksize',
    [
        (numpy.zeros((1, 1, 3, 4), numpy.float32), 5),
        (numpy.zeros((1, 3, 4), numpy.float32), 2),
        (numpy.zeros((1, 1, 3, 4), numpy.int32), 2),
    ],
)
def test_invalid_inputs(x, ksize):
    with pytest.raises(type_check.InvalidType, match='Im2Col'):
        F.im2col(x, ksize)


@pytest.mark.parametrize('cover_all', [False, True])
def test_windows_past_the_image_raise_an_assertion_error_too(cover_all):
    # Chainer asserts that the output is not empty: the InvalidType raised
    # is also an AssertionError (and one of the right size passes)
    x = numpy.zeros((1, 2, 1, 4))
    with pytest.raises(AssertionError, match='out_h'):
        F.im2col(x, (2, 3), cover_all=cover_all)
    with pytest.raises(type_check.InvalidType):
        F.im2col(x, (2, 3), cover_all=cover_all)
    assert F.im2col(x, (1, 3), cover_all=cover_all).shape[1] == 6
