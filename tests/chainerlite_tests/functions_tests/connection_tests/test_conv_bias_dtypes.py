"""Dtype mixes and edge ranks of the N-d (de)convolutions, as Chainer 7.8.1
behaves (results recorded from it): a bias of any float dtype is added in
the dtype of ``x`` and gets its gradient in its own; the 2-D functions keep
wanting the dtype of ``x``; a 2-d input is a convolution over no spatial
axes; window arguments of the wrong length are both AssertionError (Chainer's
N-d functions) and ValueError (its 2-D ones)."""

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.utils import type_check

_F16, _F32, _F64 = numpy.float16, numpy.float32, numpy.float64
_MIXES = [(_F64, _F32, _F32), (_F16, _F32, _F64), (_F32, _F16, _F64)]


def _inputs(func, dtypes):
    rng = numpy.random.RandomState(0)
    w_shape = (3, 2, 2) if func is F.convolution_nd else (2, 3, 2)
    shapes = ((1, 2, 3), w_shape, (3,))
    return [rng.uniform(-1, 1, s).astype(d) for s, d in zip(shapes, dtypes)]


@pytest.mark.parametrize('func', [F.convolution_nd, F.deconvolution_nd])
@pytest.mark.parametrize('dtypes', _MIXES)
def test_bias_of_another_float_dtype(func, dtypes):
    x, W, b = _inputs(func, dtypes)
    xv, Wv, bv = (chainerlite.Variable(a) for a in (x, W, b))
    y = func(xv, Wv, bv)
    assert y.dtype == x.dtype
    # the same sum as with the bias cast to the dtype of x first
    expected = func(x, W).array + b.astype(x.dtype)[:, None]
    numpy.testing.assert_array_equal(y.array, expected)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert [v.grad.dtype for v in (xv, Wv, bv)] == list(dtypes)
    numpy.testing.assert_array_equal(bv.grad, numpy.full(3, y.shape[2], b.dtype))


@pytest.mark.parametrize('func', [F.convolution_nd, F.deconvolution_nd])
def test_bias_of_another_dtype_gradients(func):
    x, W, b = _inputs(func, (_F64, _F64, _F32))
    gy = numpy.random.RandomState(1).uniform(-1, 1, func(x, W).shape)
    ggs = [
        numpy.random.RandomState(2).uniform(-1, 1, a.shape).astype(a.dtype)
        for a in (x, W, b)
    ]
    options = {'dtype': _F64, 'atol': 1e-3, 'rtol': 1e-3}
    gradient_check.check_backward(func, (x, W, b), gy, **options)
    gradient_check.check_double_backward(func, (x, W, b), gy, ggs, **options)


@pytest.mark.parametrize(
    'func', [F.convolution_1d, F.deconvolution_1d, F.convolution_3d, F.deconvolution_3d]
)
def test_fixed_rank_wrappers_take_the_mix(func):
    nd = 1 if func in (F.convolution_1d, F.deconvolution_1d) else 3
    x = numpy.ones((1, 2) + (3,) * nd, _F64)
    w_channels = (3, 2) if func in (F.convolution_1d, F.convolution_3d) else (2, 3)
    W = numpy.ones(w_channels + (2,) * nd, _F32)
    assert func(x, W, numpy.ones(3, _F32)).dtype == _F64


@pytest.mark.parametrize(
    'func, w_shape',
    [(F.convolution_2d, (3, 2, 2, 2)), (F.deconvolution_2d, (2, 3, 2, 2))],
)
def test_2d_functions_want_the_bias_in_the_dtype_of_x(func, w_shape):
    x = numpy.ones((1, 2, 3, 3), _F16)
    with pytest.raises(type_check.InvalidType, match='b.dtype == x.dtype'):
        func(x, numpy.ones(w_shape, _F32), numpy.ones(3, _F64))


def test_no_spatial_axes():
    # Chainer 7.8.1: a (3, 3) float32 output of ones * 4.
    y = F.convolution_nd(
        numpy.ones((3, 4), _F32),
        numpy.ones((3, 4), _F16),
        stride=2,
        pad=3,
        cover_all=True,
    )
    numpy.testing.assert_array_equal(y.array, numpy.full((3, 3), 4, _F32))
    y = F.deconvolution_nd(numpy.ones((1, 1), _F32), numpy.ones((1, 1), _F32), dilate=3)
    numpy.testing.assert_array_equal(y.array, numpy.ones((1, 1), _F32))


def test_0d_input_fails_the_rank_check():
    h = numpy.array(0.2, _F16)
    with pytest.raises(type_check.InvalidType, match='x.ndim == 2'):
        F.convolution_nd(h, h, h)


@pytest.mark.parametrize('func', [F.convolution_nd, F.deconvolution_nd])
def test_window_argument_of_the_wrong_length(func):
    x = numpy.ones((1, 4), _F64)
    for error in (AssertionError, ValueError):
        with pytest.raises(error, match=func.__name__ + ': stride'):
            func(x, numpy.ones((1, 4), _F16), stride=(3, 3))
