import itertools

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _reference(x, W, b, stride, pad, dilate, groups, cover_all):
    """N-d convolution by a sum over the filter taps of shifted inputs."""
    x, W = x.astype(numpy.float64), W.astype(numpy.float64)
    ndim = x.ndim - 2
    ksize = W.shape[2:]
    outs = []
    for d, k, s, p, r in zip(x.shape[2:], ksize, stride, pad, dilate):
        dk = (k - 1) * r + 1
        outs.append((d + 2 * p - dk + (s - 1 if cover_all else 0)) // s + 1)
    padded = numpy.zeros(
        x.shape[:2]
        + tuple(d + 2 * p + s * 2 for d, p, s in zip(x.shape[2:], pad, stride))
    )
    padded[(Ellipsis,) + tuple(slice(p, p + d) for p, d in zip(pad, x.shape[2:]))] = x
    c_out, c_in_g = W.shape[:2]
    y = numpy.zeros((x.shape[0], c_out) + tuple(outs))
    for g in range(groups):
        xs = padded[:, g * c_in_g : (g + 1) * c_in_g]
        os = slice(g * c_out // groups, (g + 1) * c_out // groups)
        for tap in itertools.product(*[range(k) for k in ksize]):
            patch = xs[
                (Ellipsis,)
                + tuple(
                    slice(t * r, t * r + s * o, s)
                    for t, r, s, o in zip(tap, dilate, stride, outs)
                )
            ]
            y[:, os] += numpy.einsum(
                'nc...,oc->no...', patch, W[(os, slice(None)) + tap]
            )
    if b is not None:
        y += b.reshape((1, -1) + (1,) * ndim)
    return y


@testing.parameterize(
    *testing.product(
        {
            'case': [
                # dims, ksize, stride, pad, dilate, groups, cover_all
                ((5,), (3,), (2,), (1,), (1,), 1, False),
                ((6,), (2,), (1,), (0,), (2,), 2, True),
                ((4, 3, 4), (2, 1, 2), (1, 1, 2), (1, 0, 0), (1, 1, 2), 2, True),
            ],
            'nobias': [False, True],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestConvolutionND(testing.FunctionTestCase):
    def setUp(self):
        (
            self.dims,
            self.ksize,
            self.stride,
            self.pad,
            self.dilate,
            self.groups,
            self.cover_all,
        ) = self.case
        tol = {numpy.float16: 5e-2, numpy.float32: 1e-3, numpy.float64: 1e-4}[
            self.dtype
        ]
        self.check_forward_options = {'atol': tol, 'rtol': tol}
        self.check_backward_options = {'dtype': numpy.float64, 'atol': tol, 'rtol': tol}
        self.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': tol,
            'rtol': tol,
        }

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (2, 4) + self.dims)
        W = numpy.random.uniform(-1, 1, (2, 4 // self.groups) + self.ksize)
        inputs = (x, W) if self.nobias else (x, W, numpy.random.uniform(-1, 1, 2))
        return tuple(a.astype(self.dtype) for a in inputs)

    def forward(self, inputs, device):
        b = None if self.nobias else inputs[2]
        return (
            F.convolution_nd(
                inputs[0],
                inputs[1],
                b,
                self.stride,
                self.pad,
                self.cover_all,
                self.dilate,
                self.groups,
            ),
        )

    def forward_expected(self, inputs):
        b = None if self.nobias else inputs[2]
        return (
            _reference(
                inputs[0],
                inputs[1],
                b,
                self.stride,
                self.pad,
                self.dilate,
                self.groups,
                self.cover_all,
            ).astype(self.dtype),
        )


def test_2d_input_matches_convolution_2d():
    x = numpy.random.uniform(-1, 1, (2, 4, 5, 6)).astype(numpy.float32)
    W = numpy.random.uniform(-1, 1, (6, 2, 3, 2)).astype(numpy.float32)
    kwargs = {'stride': (2, 1), 'pad': 1, 'dilate': (1, 2), 'groups': 2}
    numpy.testing.assert_allclose(
        F.convolution_nd(x, W, **kwargs).array,
        F.convolution_2d(x, W, **kwargs).array,
        rtol=1e-6,
    )


def test_mixed_dtypes_give_the_input_dtype():
    x = numpy.ones((1, 2, 4), numpy.float16)
    W = numpy.ones((3, 2, 2), numpy.float64)
    y = F.convolution_nd(x, W)
    assert y.dtype == numpy.float16
    numpy.testing.assert_array_equal(y.array, numpy.full((1, 3, 3), 4))


@pytest.mark.parametrize('func, ndim', [(F.convolution_1d, 1), (F.convolution_3d, 3)])
def test_fixed_rank_wrappers(func, ndim):
    x = numpy.random.uniform(-1, 1, (1, 2) + (3,) * ndim)
    W = numpy.random.uniform(-1, 1, (2, 2) + (2,) * ndim)
    numpy.testing.assert_array_equal(func(x, W).array, F.convolution_nd(x, W).array)
    with pytest.raises(ValueError, match=func.__name__):
        func(numpy.zeros((1, 2, 3, 3)), numpy.zeros((2, 2, 2, 2)))


@pytest.mark.parametrize(
    'x_shape, W_shape, dtype',
    [
        ((1, 2, 4), (3, 2, 2, 2), numpy.float32),  # ranks differ
        ((1, 2, 4), (3, 3, 2), numpy.float32),  # channels differ
        ((1, 2, 4), (3, 2, 2), numpy.int32),  # not float
    ],
)
def test_invalid_inputs(x_shape, W_shape, dtype):
    with pytest.raises(type_check.InvalidType, match='ConvolutionND'):
        F.convolution_nd(
            numpy.zeros(x_shape, dtype), numpy.zeros(W_shape, numpy.float32)
        )


def test_invalid_arguments():
    x, W = numpy.zeros((1, 2, 4)), numpy.zeros((3, 2, 2))
    with pytest.raises(ValueError, match='convolution_nd: stride'):
        F.convolution_nd(x, W, stride=0)
    with pytest.raises(ValueError, match='convolution_nd: pad'):
        F.convolution_nd(x, W, pad=(1, 1))
    with pytest.raises(RuntimeError, match='positive'):
        F.convolution_nd(x, numpy.zeros((3, 2, 6)))


def test_channels_that_differ_are_also_value_error():
    # Chainer 7.8.1's N-d node does not check them; its forward fails with
    # a ValueError (its 2-D node's type check: an InvalidType only)
    x, W = numpy.zeros((1, 2, 4)), numpy.zeros((3, 3, 2))
    with pytest.raises(type_check.InvalidType, match='W.shape') as info:
        F.convolution_nd(x, W)
    assert isinstance(info.value, ValueError)
    x2, W2 = numpy.zeros((1, 2, 4, 4)), numpy.zeros((3, 3, 2, 2))
    with pytest.raises(type_check.InvalidType) as info:
        F.convolution_2d(x2, W2)
    assert not isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    'x_shape, W_shape, b_shape',
    [((1, 2, 4), (3, 2), None), ((1, 2, 4), (3, 2, 2), (1, 3))],
)
@pytest.mark.parametrize('kwargs', [{'groups': 0}, {'stride': -1}, {'dilate': 0}])
def test_inputs_are_checked_before_the_window_arguments(
    x_shape, W_shape, b_shape, kwargs
):
    # Chainer 7.8.1 checks the inputs' ranks and the bias first and fails on
    # the arguments' values only in its forward
    args = [numpy.zeros(x_shape), numpy.zeros(W_shape)]
    if b_shape is not None:
        args.append(numpy.zeros(b_shape))
    with pytest.raises(type_check.InvalidType) as info:
        F.convolution_nd(*args, **kwargs)
    assert not isinstance(info.value, ValueError)


def test_lengths_and_2d_dilation_are_checked_before_the_inputs():
    # Chainer 7.8.1 checks them when it makes its node
    x, W = numpy.zeros((1, 2)), numpy.zeros((3, 2))
    with pytest.raises(ValueError, match='convolution_nd: stride') as info:
        F.convolution_nd(x, W, stride=(1, 1))
    assert isinstance(info.value, AssertionError)
    with pytest.raises(ValueError, match='convolution_2d: dilate'):
        F.convolution_2d(x, W, dilate=0)
    with pytest.raises(ValueError, match='deconvolution_2d: dilate'):
        F.deconvolution_2d(x, W, dilate=(1, -1))


def test_arguments_are_checked_with_the_type_check_off():
    x, W = numpy.zeros((1, 2, 4)), numpy.zeros((3, 2, 2))
    with chainerlite.using_config('type_check', False):
        with pytest.raises(ValueError, match='convolution_nd: stride'):
            F.convolution_nd(x, W, stride=0)
        with pytest.raises(ValueError, match='deconvolution_nd: pad'):
            F.deconvolution_nd(x, numpy.zeros((2, 3, 2)), pad=-1)


@pytest.mark.parametrize('ndim', [1, 2, 3])
@pytest.mark.parametrize('stride, pad', [(1, 0), (2, 1)])
def test_zero_dilation_puts_every_tap_on_one_pixel(ndim, stride, pad):
    # as Chainer 7.8.1's N-d functions compute it: a filter of one tap, the
    # sum of the taps
    rs = numpy.random.RandomState(0)
    x = rs.uniform(-1, 1, (2, 3) + (5,) * ndim)
    W = rs.uniform(-1, 1, (4, 3) + (2,) * ndim)
    one_tap = W.sum(axis=tuple(range(2, 2 + ndim)), keepdims=True)
    y = F.convolution_nd(x, W, stride=stride, pad=pad, dilate=0)
    expected = F.convolution_nd(x, one_tap, stride=stride, pad=pad)
    numpy.testing.assert_allclose(y.array, expected.array, rtol=1e-12)
    Wt = rs.uniform(-1, 1, (3, 4) + (2,) * ndim)
    yt = F.deconvolution_nd(x, Wt, stride=stride, pad=pad, dilate=0)
    # the transpose spreads nothing: the output is one tap long past the
    # input, as with a filter of length 1
    assert yt.shape[2:] == ((5 - 1) * stride + 1 - 2 * pad,) * ndim
    grads = []
    for dilate, filters in ((0, W), (1, one_tap)):
        xv = chainerlite.Variable(x)
        out = F.convolution_nd(xv, filters, stride=stride, pad=pad, dilate=dilate)
        grads.append(chainerlite.grad([F.sum(out * out)], [xv])[0].array)
    numpy.testing.assert_allclose(grads[0], grads[1], rtol=1e-12)


def test_input_without_channels_gives_zeros():
    # as Chainer 7.8.1: an empty sum (was a reshape error)
    x, W = numpy.ones((2, 0, 3), numpy.float32), numpy.ones((2, 0, 3), numpy.float32)
    y = F.convolution_1d(x, W)
    assert y.shape == (2, 2, 1)
    assert not y.array.any()


def test_empty_output_is_runtime_and_assertion_error():
    # Chainer 7.8.1 asserts on NumPy and raises RuntimeError on cuDNN
    x, W = numpy.zeros((1, 2, 1)), numpy.zeros((3, 2, 4))
    with pytest.raises(RuntimeError, match='should be positive') as info:
        F.convolution_1d(x, W)
    assert isinstance(info.value, AssertionError)
