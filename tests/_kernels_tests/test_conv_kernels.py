"""The compiled im2col / col2im of 2-D images against NumPy references.

They must give exactly the values of the NumPy loops they replace: copies
for im2col, taps added one at a time in C order for col2im.
"""

import numpy as np
import pytest

from chainerlite.utils import _windows

DTYPES = [np.float16, np.float32, np.float64]
# ksize, stride, pad, dilate, cover_all
CASES = [
    ((3, 3), (1, 1), (1, 1), (1, 1), False),
    ((3, 2), (2, 1), (1, 2), (1, 2), False),
    ((2, 3), (3, 2), (0, 1), (2, 1), True),
    ((1, 1), (2, 2), (0, 0), (1, 1), True),
]


def _out(size, k, s, p, d, cover_all):
    dk = (k - 1) * d + 1
    return (size + 2 * p - dk + (s - 1 if cover_all else 0)) // s + 1


def _reference_im2col(x, ksize, stride, pad, dilate, cover_all, pval):
    n, c, h, w = x.shape
    outs = [_out(*a, cover_all) for a in zip((h, w), ksize, stride, pad, dilate)]
    big = np.full(
        (
            n,
            c,
            h + 2 * pad[0] + 2 * ksize[0] * dilate[0] + stride[0] * outs[0],
            w + 2 * pad[1] + 2 * ksize[1] * dilate[1] + stride[1] * outs[1],
        ),
        pval,
        x.dtype,
    )
    big[:, :, pad[0] : pad[0] + h, pad[1] : pad[1] + w] = x
    col = np.empty((n, c) + tuple(ksize) + tuple(outs), x.dtype)
    for i in range(ksize[0]):
        for j in range(ksize[1]):
            y0, x0 = i * dilate[0], j * dilate[1]
            col[:, :, i, j] = big[
                :,
                :,
                y0 : y0 + stride[0] * outs[0] : stride[0],
                x0 : x0 + stride[1] * outs[1] : stride[1],
            ]
    return col


def _reference_col2im(col, stride, pad, dilate, dims):
    n, c, kh, kw, oh, ow = col.shape
    img = np.zeros(
        (
            n,
            c,
            dims[0] + 2 * pad[0] + kh * dilate[0] + stride[0] * oh,
            dims[1] + 2 * pad[1] + kw * dilate[1] + stride[1] * ow,
        ),
        col.dtype,
    )
    for i in range(kh):
        for j in range(kw):
            y0, x0 = i * dilate[0], j * dilate[1]
            img[
                :,
                :,
                y0 : y0 + stride[0] * oh : stride[0],
                x0 : x0 + stride[1] * ow : stride[1],
            ] += col[:, :, i, j]
    return img[:, :, pad[0] : pad[0] + dims[0], pad[1] : pad[1] + dims[1]]


def _images(dtype, contiguous):
    x = np.random.RandomState(0).uniform(-1, 1, (2, 3, 7, 10)).astype(dtype)
    # a strided view: every other column, the batch reversed
    return (
        np.ascontiguousarray(x[::-1, :, :, ::2]) if contiguous else x[::-1, :, :, ::2]
    )


@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('case', CASES)
@pytest.mark.parametrize('contiguous', [True, False])
def test_im2col_matches_reference(dtype, case, contiguous):
    ksize, stride, pad, dilate, cover_all = case
    x = _images(dtype, contiguous)
    pval = -2.5
    expected = _reference_im2col(x, ksize, stride, pad, dilate, cover_all, pval)
    col = _windows.im2col(x, ksize, stride, pad, pval, cover_all, dilate)
    np.testing.assert_array_equal(col, expected)
    assert col.dtype == dtype
    major = _windows.im2col(
        x, ksize, stride, pad, pval, cover_all, dilate, channel_major=True
    )
    np.testing.assert_array_equal(major, expected.transpose(1, 2, 3, 0, 4, 5))


@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('case', CASES)
def test_col2im_matches_reference(dtype, case):
    ksize, stride, pad, dilate, cover_all = case
    dims = (7, 5)
    outs = tuple(_out(*a, cover_all) for a in zip(dims, ksize, stride, pad, dilate))
    rng = np.random.RandomState(1)
    col = rng.uniform(-1, 1, (2, 3) + ksize + outs).astype(dtype)
    expected = _reference_col2im(col, stride, pad, dilate, dims)
    img = _windows.col2im(col, stride, pad, dims, dilate)
    np.testing.assert_array_equal(img, expected)
    assert img.dtype == dtype
    # the channel-major layout, passed as a strided view of another array
    major = np.ascontiguousarray(col.transpose(1, 2, 3, 0, 4, 5))
    np.testing.assert_array_equal(
        _windows.col2im(major, stride, pad, dims, dilate, channel_major=True), expected
    )
    # a broadcast (read-only, zero-stride) column array
    flat = np.broadcast_to(col[:, :, :1, :1], col.shape)
    np.testing.assert_array_equal(
        _windows.col2im(flat, stride, pad, dims, dilate),
        _reference_col2im(np.array(flat), stride, pad, dilate, dims),
    )


def test_empty_batch():
    x = np.zeros((0, 2, 4, 4), np.float32)
    col = _windows.im2col(x, (2, 2), (1, 1), (0, 0))
    assert col.shape == (0, 2, 2, 2, 3, 3)
    assert _windows.col2im(col, (1, 1), (0, 0), (4, 4)).shape == x.shape
