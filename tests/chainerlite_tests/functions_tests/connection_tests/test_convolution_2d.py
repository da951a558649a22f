import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite import testing
from chainerlite.utils import type_check


def _out_size(size, k, s, p, d, cover_all):
    dk = (k - 1) * d + 1
    if cover_all:
        return (size + 2 * p - dk + s - 1) // s + 1
    return (size + 2 * p - dk) // s + 1


def _reference(x, W, b, stride, pad, dilate, groups, cover_all):
    """Convolution by explicit loops over outputs and filter taps."""
    x = x.astype(numpy.float64)
    W = W.astype(numpy.float64)
    n, c_in, h, w = x.shape
    c_out, c_in_g, kh, kw = W.shape
    (sy, sx), (ph, pw), (dy, dx) = stride, pad, dilate
    out_h = _out_size(h, kh, sy, ph, dy, cover_all)
    out_w = _out_size(w, kw, sx, pw, dx, cover_all)
    padded = numpy.zeros((n, c_in, h + 2 * ph + sy, w + 2 * pw + sx))
    padded[:, :, ph : ph + h, pw : pw + w] = x
    y = numpy.zeros((n, c_out, out_h, out_w))
    c_out_g = c_out // groups
    for o in range(c_out):
        c0 = (o // c_out_g) * c_in_g
        for a in range(out_h):
            for b_ in range(out_w):
                for j in range(kh):
                    for i in range(kw):
                        patch = padded[
                            :, c0 : c0 + c_in_g, a * sy + j * dy, b_ * sx + i * dx
                        ]
                        y[:, o, a, b_] += patch.dot(W[o, :, j, i])
    if b is not None:
        y += b.reshape(1, -1, 1, 1)
    return y


@testing.parameterize(
    *testing.product(
        {
            'case': [
                # stride, pad, dilate, groups, cover_all
                ((1, 1), (0, 0), (1, 1), 1, False),
                ((2, 1), (1, 0), (1, 1), 1, True),
                ((2, 2), (1, 2), (1, 2), 1, False),
                ((1, 2), (1, 1), (2, 1), 3, True),
            ],
            'nobias': [False, True],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_ideep': 'always'}, {'use_cuda': True}])
class TestConvolution2D(testing.FunctionTestCase):
    def setUp(self):
        self.stride, self.pad, self.dilate, self.groups, self.cover_all = self.case
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
        x = numpy.random.uniform(-1, 1, (2, 3, 5, 5))
        W = numpy.random.uniform(-1, 1, (6, 3 // self.groups, 3, 2))
        inputs = (x, W)
        if not self.nobias:
            inputs += (numpy.random.uniform(-1, 1, 6),)
        return tuple(a.astype(self.dtype) for a in inputs)

    def forward(self, inputs, device):
        return (
            F.convolution_2d(
                *inputs,
                stride=self.stride,
                pad=self.pad,
                cover_all=self.cover_all,
                dilate=self.dilate,
                groups=self.groups,
            ),
        )

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        b = None if self.nobias else inputs[2]
        y = _reference(
            x, W, b, self.stride, self.pad, self.dilate, self.groups, self.cover_all
        )
        return (y.astype(self.dtype),)


def test_scalar_arguments_mean_pairs():
    x = numpy.random.uniform(-1, 1, (1, 2, 7, 5))
    W = numpy.random.uniform(-1, 1, (3, 2, 2, 2))
    y = F.convolution_2d(x, W, stride=2, pad=1, dilate=2)
    expected = _reference(x, W, None, (2, 2), (1, 1), (2, 2), 1, False)
    assert y.shape == (1, 3, 4, 3)
    numpy.testing.assert_allclose(y.array, expected)


def test_cover_all_changes_output_size():
    x = numpy.zeros((1, 1, 5, 5), numpy.float32)
    W = numpy.zeros((1, 1, 2, 2), numpy.float32)
    assert F.convolution_2d(x, W, stride=2).shape == (1, 1, 2, 2)
    assert F.convolution_2d(x, W, stride=2, cover_all=True).shape == (1, 1, 3, 3)


def test_mixed_precision_keeps_dtypes():
    x = chainerlite.Variable(
        numpy.random.uniform(-1, 1, (2, 2, 4, 4)).astype(numpy.float16)
    )
    W = chainerlite.Variable(
        numpy.random.uniform(-1, 1, (3, 2, 2, 2)).astype(numpy.float32)
    )
    y = F.convolution_2d(x, W)
    assert y.dtype == numpy.float16
    y.grad = numpy.ones(y.shape, numpy.float16)
    y.backward()
    assert x.grad.dtype == numpy.float16
    assert W.grad.dtype == numpy.float32


def test_dilate_and_groups_are_keyword_only():
    x = numpy.zeros((1, 2, 4, 4), numpy.float32)
    W = numpy.zeros((2, 2, 2, 2), numpy.float32)
    with pytest.raises(TypeError):
        F.convolution_2d(x, W, None, 1, 0, False, 2)


@pytest.mark.parametrize(
    'x_shape, w_shape, b_shape, x_dtype, b_dtype, groups',
    [
        ((2, 3, 5, 5), (4, 3, 2, 2), (4,), numpy.int32, numpy.int32, 1),
        ((3, 5, 5), (4, 3, 2, 2), (4,), numpy.float32, numpy.float32, 1),
        ((2, 3, 5, 5), (4, 3, 2), (4,), numpy.float32, numpy.float32, 1),
        ((2, 3, 5, 5), (4, 2, 2, 2), (4,), numpy.float32, numpy.float32, 1),
        ((2, 3, 5, 5), (4, 3, 2, 2), (5,), numpy.float32, numpy.float32, 1),
        ((2, 3, 5, 5), (4, 3, 2, 2), (4,), numpy.float32, numpy.float64, 1),
        ((2, 3, 5, 5), (4, 3, 2, 2), (4, 1), numpy.float32, numpy.float32, 1),
        ((2, 4, 5, 5), (3, 2, 2, 2), (3,), numpy.float32, numpy.float32, 2),
    ],
)
def test_invalid_inputs(x_shape, w_shape, b_shape, x_dtype, b_dtype, groups):
    x = numpy.zeros(x_shape, x_dtype)
    W = numpy.zeros(w_shape, numpy.float32)
    b = numpy.zeros(b_shape, b_dtype)
    with pytest.raises(type_check.InvalidType, match='Convolution2DFunction'):
        F.convolution_2d(x, W, b, groups=groups)


@pytest.mark.parametrize('x_shape', [(1, 1, 2, 5), (1, 1, 5, 2)])
def test_empty_output_is_an_error(x_shape):
    x = numpy.zeros(x_shape, numpy.float32)
    W = numpy.zeros((1, 1, 3, 3), numpy.float32)
    with pytest.raises(RuntimeError, match='should be positive'):
        F.convolution_2d(x, W)


@pytest.mark.parametrize('groups', [1, 2])
@pytest.mark.parametrize(
    'func, w_shape, out_hw',
    [(F.convolution_2d, (6, 4, 3, 3), 2), (F.deconvolution_2d, (4, 6, 3, 3), 5)],
)
def test_empty_batch(func, w_shape, out_hw, groups):
    # Both directions of the convolution, with their gradients: an empty
    # output of the right shape, an empty gradient of x and zero ones of
    # W and b.
    w_shape = (w_shape[0], w_shape[1] // groups) + w_shape[2:]
    x = chainerlite.Variable(numpy.zeros((0, 4, 3, 3), numpy.float32))
    W = chainerlite.Variable(numpy.random.uniform(-1, 1, w_shape).astype(numpy.float32))
    b = chainerlite.Variable(numpy.ones(6, numpy.float32))
    y = func(x, W, b, stride=2, pad=1, groups=groups)
    assert y.shape == (0, 6, out_hw, out_hw) and y.dtype == numpy.float32
    F.sum(y).backward()
    assert x.grad.shape == x.shape
    numpy.testing.assert_array_equal(W.grad, numpy.zeros(W.shape))
    numpy.testing.assert_array_equal(b.grad, numpy.zeros(6))
    gradient_check.check_double_backward(
        lambda *a: func(*a, stride=2, pad=1, groups=groups),
        tuple(v.array.astype(numpy.float64) for v in (x, W, b)),
        numpy.zeros(y.shape),
        (numpy.zeros(x.shape), numpy.ones(W.shape), numpy.ones(6)),
    )


@pytest.mark.parametrize('func', [F.convolution_2d, F.dilated_convolution_2d])
@pytest.mark.parametrize(
    'x_shape, w_shape, error',
    [
        # Chainer 7.8.1's 2-D check reads shape[1] of both with the ranks
        ((), (2, 3, 1, 1), IndexError),
        ((2, 3, 4, 4), (2,), IndexError),
        # enough axes to read: the rank check fails on its own
        ((2, 3, 4), (2, 3, 1, 1), type_check.InvalidType),
    ],
)
def test_inputs_of_other_ranks_raise_chainers_type(func, x_shape, w_shape, error):
    x = numpy.zeros(x_shape, numpy.float32)
    W = numpy.zeros(w_shape, numpy.float32)
    with pytest.raises(error, match='ndim') as info:
        func(x, W)
    assert isinstance(info.value, type_check.InvalidType)
    if error is type_check.InvalidType:
        assert not isinstance(info.value, IndexError)
