"""Dropout's kernels (``chainerlite._kernels.dropout``): the mask stream of
a key as documented (SplitMix64 words, the low half for even elements),
the one-pass forward and gradient bit for bit against NumPy's products with
the scaled mask, the same bits with one OpenMP thread and with two, and
their declines."""

import numpy as np
import pytest

from chainerlite._kernels import dropout as kernels

MASK64 = 2**64 - 1


def _words(key, n):
    # the reference stream in Python integers
    out = []
    for p in range((n + 1) // 2):
        z = (key + (p + 1) * 0x9E3779B97F4A7C15) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        z ^= z >> 31
        out += [z & 0xFFFFFFFF, z >> 32]
    return np.array(out[:n], np.uint64)


@pytest.mark.parametrize('n', [1, 2, 7, 1001])
@pytest.mark.parametrize('ratio', [0.0, 0.1, 0.5, 0.9, 1 - 2**-40])
def test_keep_mask_is_the_documented_stream(n, ratio):
    key = 0x0123456789ABCDEF
    threshold = int(ratio * 2**32)
    keep = kernels.keep_mask((n,), key, threshold)
    assert keep.dtype == np.bool_ and keep.shape == (n,)
    np.testing.assert_array_equal(keep, _words(key, n) >= threshold)


def test_keys_give_other_masks_of_the_set_ratio():
    masks = [kernels.keep_mask((200000,), key, 2**31) for key in (0, 1, 2**63)]
    for mask in masks:
        # 200000 Bernoulli(0.5) draws: the kept fraction within 6 sigma
        assert abs(mask.mean() - 0.5) < 6 * (0.25 / 200000) ** 0.5
    for i in range(3):
        for j in range(i):
            assert abs((masks[i] == masks[j]).mean() - 0.5) < 0.01


@pytest.mark.filterwarnings('ignore:invalid value:RuntimeWarning')
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
@pytest.mark.parametrize('shape', [(3, 5), (7,), (1000, 3)])
def test_forward_and_backward_are_numpys_products(dtype, shape):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(dtype)
    x.flat[:4] = [np.inf, -np.inf, np.nan, -0.0][: x.size]
    scale = dtype(1 / 0.7)
    key, threshold = 12345, int(0.3 * 2**32)
    y, keep = kernels.forward(x, key, threshold, scale)
    np.testing.assert_array_equal(keep, kernels.keep_mask(shape, key, threshold))
    mask = np.multiply(keep, scale, dtype=dtype)
    assert y.dtype == dtype
    assert y.tobytes() == (x * mask).tobytes()
    gx = kernels.backward(x, keep, scale)
    assert gx.dtype == dtype and gx.tobytes() == (x * mask).tobytes()


def test_declines():
    x = np.ones((4, 6), np.float32)
    keep = np.ones((4, 6), np.bool_)
    assert kernels.forward(x.astype(np.float16), 1, 0, 2.0) is None
    assert kernels.forward(x[:, ::2], 1, 0, 2.0) is None
    assert kernels.forward(x.T, 1, 0, 2.0) is None  # Fortran order
    assert kernels.forward(list(x), 1, 0, 2.0) is None
    assert kernels.backward(x.astype(np.float16), keep, 2.0) is None
    assert kernels.backward(x, keep.astype(np.uint8), 2.0) is None
    assert kernels.backward(x, keep[:2], 2.0) is None
    assert kernels.backward(x, keep.T.copy().T, 2.0) is None


# sizes: forward and gradient shared by the threads (odd: uneven parts, a
# last element alone); the forward's pairs shared but not the gradient's
# elements (parts_of counts 3 units a pair, 1 an element)
SIZES = (3 * (1 << 18) + 1, 200001)

PROGRAM = r'''
import sys
import numpy as np
from chainerlite._kernels import dropout as kernels
out = {}
for n in %r:
    x = np.random.default_rng(1).standard_normal(n).astype(np.float32)
    y, keep = kernels.forward(x, 99, 2**30, np.float32(4 / 3))
    gx = kernels.backward(x, keep, np.float32(4 / 3))
    out.update({f'x{n}': x, f'y{n}': y, f'keep{n}': keep, f'gx{n}': gx,
                f'alone{n}': kernels.keep_mask((n,), 99, 2**30)})
np.savez(sys.argv[1], **out)
''' % (SIZES,)


def test_two_threads_give_the_bits_of_one(thread_results):
    one, two = thread_results(PROGRAM, 1), thread_results(PROGRAM, 2)
    assert sorted(one) == sorted(two) and len(one) == 5 * len(SIZES)
    for name in one:
        assert one[name].tobytes() == two[name].tobytes(), name
    for n in SIZES:
        x, keep = one[f'x{n}'], one[f'keep{n}']
        np.testing.assert_array_equal(keep, one[f'alone{n}'])
        np.testing.assert_array_equal(keep, _words(99, n) >= 2**30)
        mask = np.multiply(keep, np.float32(4 / 3), dtype=np.float32)
        assert two[f'y{n}'].tobytes() == (x * mask).tobytes()
        assert two[f'gx{n}'].tobytes() == (x * mask).tobytes()
