"""The compiled scatter-add of rows (``chainerlite._kernels.scatter``)
gives ``numpy.add.at``'s bits, for every id dtype, repeated and negative
ids and special values; and it declines (writing nothing) what it cannot
do as NumPy does."""

import numpy as np
import pytest

from chainerlite._kernels import scatter

FLOATS = [np.float32, np.float64]
SPECIAL = [np.inf, -np.inf, np.nan, 0.0, -0.0, 1e-45, 1e30, -1e30, 3.0]


def _assert_same(a, b):
    nan = np.isnan(a)
    np.testing.assert_array_equal(nan, np.isnan(b))
    np.testing.assert_array_equal(a[~nan].view(np.uint8), b[~nan].view(np.uint8))


def _numpy(rows, ids, src, skip):
    # EmbedIDGrad's NumPy path
    dst = np.zeros((rows, src.shape[1]), src.dtype)
    if skip is not None:
        keep = ids != skip
        ids, src = ids[keep], src[keep]
    np.add.at(dst, (ids,), src)
    return dst


@pytest.mark.parametrize('dtype', FLOATS)
@pytest.mark.parametrize('id_dtype', [np.int32, np.int64])
@pytest.mark.parametrize('skip', [None, -1, 2])
def test_add_rows_matches_add_at(dtype, id_dtype, skip):
    rng = np.random.default_rng(0)
    for trial in range(60):
        rows, cols, n = rng.integers(1, 9), rng.integers(1, 40), rng.integers(0, 60)
        ids = rng.integers(-rows, rows, n).astype(id_dtype)
        src = rng.standard_normal((n, cols)).astype(dtype)
        if trial % 2:
            src *= rng.choice(np.array(SPECIAL, dtype), (n, cols))
        with np.errstate(all='ignore'):
            want = _numpy(rows, ids, src, skip)
            got = np.zeros((rows, cols), dtype)
            assert scatter.add_rows(got, ids, src, skip) is got
        _assert_same(got, want)


def _declined(dst, ids, src, skip=None):
    before = np.array(dst, copy=True)
    assert scatter.add_rows(dst, ids, src, skip) is None
    np.testing.assert_array_equal(dst, before)


def test_add_rows_declines():
    dst = np.zeros((4, 3), np.float32)
    ids = np.array([0, 3, 1])
    src = np.ones((3, 3), np.float32)
    _declined(dst, np.array([0, 4, 1]), src)  # out of range: NumPy raises
    _declined(dst, np.array([0, -5, 1]), src)
    _declined(dst, ids.astype(np.int16), src)
    _declined(dst, ids.astype(np.float32), src)
    _declined(dst, ids, src.astype(np.float64))
    _declined(dst.astype(np.float16), ids, src.astype(np.float16))
    _declined(dst, ids, src[:2])
    _declined(dst, ids, np.ones((3, 4), np.float32))
    _declined(dst, ids, np.ones((3, 6), np.float32)[:, ::2])
    _declined(dst.T, ids, src)
    _declined(dst, ids, src, skip=np.int64(3))
    _declined(dst, ids.astype(np.int32), src, skip=2**40)
    _declined(dst, ids, dst[:3])  # overlapping
    readonly = dst.copy()
    readonly.flags.writeable = False
    _declined(readonly, ids, src)
    _declined(list(dst), ids, src)


def test_add_rows_skips_an_out_of_range_ignored_id():
    dst = np.zeros((2, 2), np.float64)
    src = np.arange(6.0).reshape(3, 2)
    assert scatter.add_rows(dst, np.array([1, -9, 1]), src, -9) is dst
    np.testing.assert_array_equal(dst, [[0, 0], [4, 6]])
