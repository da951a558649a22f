import itertools

import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _reference(x, W, b, stride, pad, dilate, groups, outs):
    """Deconvolution: every input element scatters its scaled filter."""
    x, W = x.astype(numpy.float64), W.astype(numpy.float64)
    c_in, c_out_g = W.shape[:2]
    ksize = W.shape[2:]
    big = numpy.zeros(
        (x.shape[0], c_out_g * groups)
        + tuple(
            o + 2 * p + (k - 1) * r + s
            for o, p, k, r, s in zip(outs, pad, ksize, dilate, stride)
        )
    )
    c_in_g = c_in // groups
    for pos in itertools.product(*[range(d) for d in x.shape[2:]]):
        for tap in itertools.product(*[range(k) for k in ksize]):
            at = tuple(q * s + t * r for q, s, t, r in zip(pos, stride, tap, dilate))
            for g in range(groups):
                xin = x[(slice(None), slice(g * c_in_g, (g + 1) * c_in_g)) + pos]
                w = W[(slice(g * c_in_g, (g + 1) * c_in_g),) + (slice(None),) + tap]
                big[(slice(None), slice(g * c_out_g, (g + 1) * c_out_g)) + at] += (
                    xin.dot(w)
                )
    y = big[(Ellipsis,) + tuple(slice(p, p + o) for p, o in zip(pad, outs))]
    if b is not None:
        y = y + b.reshape((1, -1) + (1,) * len(outs))
    return y


@testing.parameterize(
    *testing.product(
        {
            'case': [
                # dims, ksize, stride, pad, dilate, groups, outsize, expected
                ((3,), (3,), (2,), (1,), (1,), 1, None, (5,)),
                ((3,), (2,), (2,), (0,), (2,), 2, (7,), (7,)),
                (
                    (2, 3, 2),
                    (2, 1, 3),
                    (2, 1, 1),
                    (0, 0, 1),
                    (1, 1, 1),
                    1,
                    None,
                    (4, 3, 2),
                ),
            ],
            'nobias': [False, True],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDeconvolutionND(testing.FunctionTestCase):
    def setUp(self):
        (
            self.dims,
            self.ksize,
            self.stride,
            self.pad,
            self.dilate,
            self.groups,
            self.outsize,
            self.expected,
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
        W = numpy.random.uniform(-1, 1, (4, 4 // self.groups) + self.ksize)
        inputs = (x, W) if self.nobias else (x, W, numpy.random.uniform(-1, 1, 4))
        return tuple(a.astype(self.dtype) for a in inputs)

    def forward(self, inputs, device):
        b = None if self.nobias else inputs[2]
        return (
            F.deconvolution_nd(
                inputs[0],
                inputs[1],
                b,
                self.stride,
                self.pad,
                self.outsize,
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
                self.expected,
            ).astype(self.dtype),
        )


@pytest.mark.parametrize(
    'func, ndim', [(F.deconvolution_1d, 1), (F.deconvolution_3d, 3)]
)
def test_fixed_rank_wrappers(func, ndim):
    x = numpy.random.uniform(-1, 1, (1, 2) + (3,) * ndim)
    W = numpy.random.uniform(-1, 1, (2, 2) + (2,) * ndim)
    numpy.testing.assert_array_equal(func(x, W).array, F.deconvolution_nd(x, W).array)
    with pytest.raises(ValueError, match=func.__name__):
        func(numpy.zeros((1, 2, 3, 3)), numpy.zeros((2, 2, 2, 2)))


def test_outsize_must_convolve_back_to_the_input():
    x, W = numpy.zeros((1, 3, 4), numpy.float32), numpy.zeros((3, 2, 2), numpy.float32)
    with pytest.raises(type_check.InvalidType, match='DeconvolutionND'):
        F.deconvolution_nd(x, W, outsize=(10,))
    with pytest.raises(ValueError, match='outsize'):
        F.deconvolution_nd(x, W, outsize=(5, 5))


def test_non_positive_output_size():
    x, W = numpy.zeros((1, 3, 4), numpy.float32), numpy.zeros((3, 2, 2), numpy.float32)
    with pytest.raises(AssertionError, match='deconvolution_nd'):
        F.deconvolution_nd(x, W, pad=10)


def test_invalid_bias():
    x, W = numpy.zeros((1, 3, 4), numpy.float32), numpy.zeros((3, 2, 2), numpy.float32)
    with pytest.raises(type_check.InvalidType):
        F.deconvolution_nd(x, W, numpy.zeros((2,), numpy.int32))


def test_outsize_is_checked_after_stride_and_pad_as_in_chainer():
    x, W = numpy.zeros((1, 2, 3)), numpy.zeros((2, 2, 2))
    with pytest.raises(
        TypeError, match='deconvolution_nd: outsize must be None or a tuple'
    ):
        F.deconvolution_nd(x, W, outsize=4)
    with pytest.raises(AssertionError, match='outsize must have 1 values'):
        F.deconvolution_nd(x, W, outsize=(4, 4))
    with pytest.raises(ValueError, match='deconvolution_nd: pad'):
        F.deconvolution_nd(x, W, pad=(1, 1), outsize=4)
