"""The compiled 2-D max pooling against a NumPy reference: the running
maximum over the taps in C order (NaN propagates, a tie keeps the later
tap's value, the first tap holding the maximum is the index), and gradients
added onto each pixel in the order of the taps."""

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F

# ksize, stride, pad, cover_all
CASES = [
    ((2, 2), (2, 2), (0, 0), True),
    ((3, 2), (1, 2), (1, 0), False),
    ((3, 3), (2, 1), (1, 1), True),
]


def _reference(x, ksize, stride, pad, cover_all):
    (kh, kw), (sy, sx), (py, px) = ksize, stride, pad
    n, c, h, w = x.shape
    oh, ow = (
        (d + 2 * p - k + (s - 1 if cover_all else 0)) // s + 1
        for d, k, s, p in zip((h, w), ksize, stride, pad)
    )
    big = np.full(
        (n, c, h + 2 * py + kh + sy * oh, w + 2 * px + kw + sx * ow), -np.inf, x.dtype
    )
    big[:, :, py : py + h, px : px + w] = x
    taps = [
        big[:, :, i : i + sy * oh : sy, j : j + sx * ow : sx]
        for i in range(kh)
        for j in range(kw)
    ]
    y, index = taps[0].copy(), np.zeros((n, c, oh, ow), np.intp)
    for k, tap in enumerate(taps[1:], 1):
        index[tap > y] = k
        y = np.maximum(y, tap)
    return y, index


def _reference_grad(gy, index, ksize, stride, pad, shape):
    (kh, kw), (sy, sx), (py, px) = ksize, stride, pad
    n, c, oh, ow = gy.shape
    big = np.zeros(
        (n, c, shape[2] + 2 * py + kh + sy * oh, shape[3] + 2 * px + kw + sx * ow),
        gy.dtype,
    )
    for k in range(kh * kw):
        i, j = divmod(k, kw)
        big[:, :, i : i + sy * oh : sy, j : j + sx * ow : sx] += np.where(
            index == k, gy, 0
        ).astype(gy.dtype)
    return big[:, :, py : py + shape[2], px : px + shape[3]]


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
@pytest.mark.parametrize('case', CASES)
def test_forward_and_grad_match_reference(dtype, case):
    ksize, stride, pad, cover_all = case
    rng = np.random.RandomState(0)
    # ties (few distinct values, signed zeros) and NaN
    x = rng.randint(-2, 3, (2, 3, 7, 6)).astype(dtype)
    x[0, 0, 0, :3] = [-0.0, 0.0, -0.0]
    x[1, 2, 3, 3] = np.nan
    x = x[:, :, :, ::-1]  # a strided view
    expected, index = _reference(x, ksize, stride, pad, cover_all)
    y, got_index = F.max_pooling_2d(
        x, ksize, stride, pad, cover_all, return_indices=True
    )
    np.testing.assert_array_equal(y.array, expected)
    np.testing.assert_array_equal(np.signbit(y.array), np.signbit(expected))
    np.testing.assert_array_equal(got_index, index)
    assert y.dtype == dtype

    xv = chainerlite.Variable(x)
    y = F.max_pooling_2d(xv, ksize, stride, pad, cover_all)
    gy = rng.uniform(-1, 1, y.shape).astype(dtype)
    y.grad = gy
    y.backward()
    np.testing.assert_array_equal(
        xv.grad, _reference_grad(gy, index, ksize, stride, pad, x.shape)
    )
