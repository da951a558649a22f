"""packed_gemm: products of a few rows against a matrix packed once,
against float64 products, within its PRECISION; its declines."""

import numpy as np
import pytest

from chainerlite._kernels import packed_gemm

RTOL = 1e-5  # of the sum of the products' magnitudes (PRECISION)

needs_kernel = pytest.mark.skipif(
    packed_gemm.pack(np.ones((1, 1), np.float32), False) is None,
    reason='packed_gemm needs a CPU with AVX-512F',
)


def _check(x, b, y):
    x64, b64 = x.astype(np.float64), b.astype(np.float64)
    scale = np.abs(x64) @ np.abs(b64)
    assert y.dtype == np.float32 and y.shape == scale.shape
    assert np.all(np.abs(y - x64 @ b64) <= RTOL * scale + 1e-30)


@needs_kernel
@pytest.mark.parametrize('transposed', [False, True])
@pytest.mark.parametrize(
    'm, k, n',
    [
        (1, 1, 1),
        (3, 5, 7),
        (10, 17, 32),
        (11, 64, 33),
        (20, 650, 2600),
        (23, 40, 95),
        (64, 300, 80),
    ],
)
def test_product(m, k, n, transposed):
    rng = np.random.default_rng(m * 1000 + n)
    b = rng.standard_normal((k, n)).astype(np.float32)
    x = rng.standard_normal((m, k)).astype(np.float32)
    w = np.ascontiguousarray(b.T) if transposed else b
    packed = packed_gemm.pack(w, transposed)
    assert (packed.k, packed.n) == (k, n)
    _check(x, b, packed_gemm.matmul(x, packed))


@needs_kernel
def test_operands_in_any_layout():
    rng = np.random.default_rng(1)
    wide = rng.standard_normal((12, 70)).astype(np.float32)
    x = wide[:, 3:43]  # rows apart by 70 elements
    w = rng.standard_normal((33, 40)).astype(np.float32)
    _check(x, w.T, packed_gemm.matmul(x, packed_gemm.pack(w.T.T, True)))
    # a matrix in Fortran order is packed from its values
    _check(x, w.T, packed_gemm.matmul(x, packed_gemm.pack(np.asfortranarray(w), True)))
    _check(
        x[:, ::-1],
        w.T[::-1],
        packed_gemm.matmul(x[:, ::-1], packed_gemm.pack(w.T[::-1], False)),
    )


@needs_kernel
def test_special_values_propagate():
    x = np.ones((3, 4), np.float32)
    w = np.ones((4, 5), np.float32)
    x[1, 2] = np.nan
    w[0, 3] = np.inf
    y = packed_gemm.matmul(x, packed_gemm.pack(w, False))
    expected = x.astype(np.float64) @ w
    np.testing.assert_array_equal(y, expected.astype(np.float32))


@pytest.mark.parametrize(
    'w',
    [
        np.ones((4, 5)),
        np.ones((4, 5), np.float16),
        np.ones(5, np.float32),
        np.ones((0, 5), np.float32),
        [[1.0, 2.0]],
        np.ones((2, 3, 4), np.float32),
    ],
    ids=['float64', 'float16', '1-d', 'empty', 'list', '3-d'],
)
def test_pack_declines(w):
    assert packed_gemm.pack(w, False) is None
    assert packed_gemm.pack(w, True) is None


@needs_kernel
@pytest.mark.parametrize(
    'x',
    [
        np.ones((3, 4)),
        np.ones(4, np.float32),
        np.ones((3, 5), np.float32),
        np.ones((0, 4), np.float32),
        np.ones((2, 3, 4), np.float32),
    ],
    ids=['float64', '1-d', 'other-k', 'no-rows', '3-d'],
)
def test_matmul_declines(x):
    packed = packed_gemm.pack(np.ones((4, 6), np.float32), False)
    assert packed_gemm.matmul(x, packed) is None
    assert packed_gemm.matmul(np.ones((3, 4), np.float32), None) is None


@needs_kernel
def test_writes_into_out():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((13, 40)).astype(np.float32)
    w = rng.standard_normal((40, 50)).astype(np.float32)
    wide = np.full((13, 64), 7.0, np.float32)
    out = wide[:, 5:55]  # rows apart by 64 elements
    assert packed_gemm.matmul(x, packed_gemm.pack(w, False), out) is out
    _check(x, w, out)
    assert np.all(wide[:, :5] == 7) and np.all(wide[:, 55:] == 7)


@needs_kernel
@pytest.mark.parametrize(
    'case', ['float64', 'shape', 'strided', 'read-only', 'overlaps x', 'list']
)
def test_out_it_does_not_take_is_left_alone(case):
    x = np.ones((3, 4), np.float32)
    packed = packed_gemm.pack(np.ones((4, 6), np.float32), False)
    out = {
        'float64': np.zeros((3, 6)),
        'shape': np.zeros((3, 5), np.float32),
        'strided': np.zeros((3, 12), np.float32)[:, ::2],
        'read-only': np.zeros((3, 6), np.float32),
        'list': [[0.0] * 6] * 3,
    }.get(case)
    if case == 'read-only':
        out.flags.writeable = False
    if case == 'overlaps x':
        both = np.ones((3, 10), np.float32)
        x, out = both[:, :4], both[:, 4:]
        before = both.copy()
    assert packed_gemm.matmul(x, packed, out) is None
    if case == 'overlaps x':
        np.testing.assert_array_equal(both, before)
    elif case != 'list':
        assert not np.any(out)


@needs_kernel
def test_add_starts_the_sums():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((21, 30)).astype(np.float32)
    w = rng.standard_normal((30, 45)).astype(np.float32)
    add = rng.standard_normal((21, 50)).astype(np.float32)[:, 2:47]
    y = packed_gemm.matmul(x, packed_gemm.pack(w, False), None, add)
    scale = np.abs(x) @ np.abs(w) + np.abs(add)
    expected = x.astype(np.float64) @ w + add
    assert np.all(np.abs(y - expected) <= 1e-5 * scale)


@needs_kernel
@pytest.mark.parametrize('case', ['float64', 'shape', 'strided', 'out overlaps'])
def test_add_it_does_not_take_is_declined(case):
    x = np.ones((3, 4), np.float32)
    packed = packed_gemm.pack(np.ones((4, 6), np.float32), False)
    add = {
        'float64': np.zeros((3, 6)),
        'shape': np.zeros((3, 7), np.float32),
        'strided': np.zeros((3, 12), np.float32)[:, ::2],
        'out overlaps': np.zeros((3, 6), np.float32),
    }[case]
    out = add if case == 'out overlaps' else np.zeros((3, 6), np.float32)
    assert packed_gemm.matmul(x, packed, out, add) is None
    assert not np.any(out)
