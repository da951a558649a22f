import numpy
import pytest

import chainerlite
import chainerlite.links as L
from chainerlite import gradient_check
from chainerlite import initializers


def _deconv_reference(x, W, b, stride, pad, dilate, groups, outsize=None):
    n, in_c, h, w = x.shape
    _, o_g, kh, kw = W.shape
    (sy, sx), (ph, pw), (dy, dx) = stride, pad, dilate
    if outsize is None:
        outsize = (
            sy * (h - 1) + (kh - 1) * dy + 1 - 2 * ph,
            sx * (w - 1) + (kw - 1) * dx + 1 - 2 * pw,
        )
    full_h = max(outsize[0] + 2 * ph, sy * (h - 1) + (kh - 1) * dy + 1)
    full_w = max(outsize[1] + 2 * pw, sx * (w - 1) + (kw - 1) * dx + 1)
    full = numpy.zeros((n, o_g * groups, full_h, full_w))
    c_g = in_c // groups
    for g in range(groups):
        xg = x[:, g * c_g : (g + 1) * c_g]
        Wg = W[g * c_g : (g + 1) * c_g]
        for i in range(kh):
            for j in range(kw):
                full[
                    :,
                    g * o_g : (g + 1) * o_g,
                    i * dy : i * dy + sy * (h - 1) + 1 : sy,
                    j * dx : j * dx + sx * (w - 1) + 1 : sx,
                ] += numpy.einsum('nchw,co->nohw', xg, Wg[:, :, i, j])
    y = full[:, :, ph : ph + outsize[0], pw : pw + outsize[1]]
    if b is not None:
        y = y + b.reshape(1, -1, 1, 1)
    return y


CASES = [
    dict(ksize=3, stride=1, pad=0, dilate=1, groups=1, nobias=False, outsize=None),
    dict(
        ksize=(2, 3),
        stride=2,
        pad=(1, 0),
        dilate=1,
        groups=1,
        nobias=True,
        outsize=(5, 10),
    ),
    dict(ksize=2, stride=1, pad=1, dilate=2, groups=2, nobias=False, outsize=None),
]


@pytest.mark.parametrize('case', CASES)
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_forward_matches_reference(case, dtype):
    with chainerlite.using_config('dtype', dtype):
        deconv = L.Deconvolution2D(
            4,
            6,
            case['ksize'],
            stride=case['stride'],
            pad=case['pad'],
            nobias=case['nobias'],
            outsize=case['outsize'],
            dilate=case['dilate'],
            groups=case['groups'],
            initial_bias=initializers.Normal(),
        )
    x = numpy.random.uniform(-1, 1, (2, 4, 3, 4)).astype(dtype)
    y = deconv(x)
    b = None if deconv.b is None else deconv.b.array
    expected = _deconv_reference(
        x,
        deconv.W.array,
        b,
        deconv.stride,
        deconv.pad,
        deconv.dilate,
        deconv.groups,
        case['outsize'],
    )
    assert y.dtype == dtype
    tol = 1e-5 if dtype == numpy.float32 else 1e-12
    numpy.testing.assert_allclose(y.array, expected, rtol=tol, atol=tol)


@pytest.mark.parametrize('case', CASES)
def test_parameter_gradients(case):
    deconv = L.Deconvolution2D(
        4,
        6,
        case['ksize'],
        stride=case['stride'],
        pad=case['pad'],
        nobias=case['nobias'],
        outsize=case['outsize'],
        dilate=case['dilate'],
        groups=case['groups'],
    )
    x = numpy.random.uniform(-1, 1, (2, 4, 3, 4)).astype(numpy.float32)
    gy = numpy.random.uniform(-1, 1, deconv(x).shape).astype(numpy.float32)
    params = [p for p in (deconv.W, deconv.b) if p is not None]
    gradient_check.check_backward(
        deconv, x, gy, params=params, dtype=numpy.float64, atol=1e-3, rtol=1e-3
    )


def test_parameters():
    deconv = L.Deconvolution2D(3, 4, 2)
    assert deconv.W.shape == (3, 4, 2, 2)
    numpy.testing.assert_array_equal(deconv.b.array, numpy.zeros(4))
    assert deconv.outsize is None
    assert L.Deconvolution2D(4, 6, 3, groups=2).W.shape == (4, 3, 3, 3)
    assert L.Deconvolution2D(3, 4, 2, nobias=True).b is None


@pytest.mark.parametrize('args', [(None, 5, 3), (5, 3)])
def test_lazy_in_channels(args):
    deconv = L.Deconvolution2D(*args)
    assert deconv.W.array is None
    y = deconv(numpy.ones((1, 2, 4, 4), numpy.float32))
    assert deconv.W.shape == (2, 5, 3, 3)
    assert y.shape == (1, 5, 6, 6)


def test_groups_must_divide_channels():
    with pytest.raises(ValueError, match='output channels'):
        L.Deconvolution2D(4, 5, 3, groups=2)
    with pytest.raises(ValueError, match='input channels'):
        L.Deconvolution2D(3, 4, 3, groups=2)
