"""The compiled 2-D max pooling against a NumPy reference: the running
maximum over the taps in C order (NaN propagates, a tie keeps the later
tap's value, the first tap holding the maximum is the index, or the first
NaN as in Chainer), and gradients added onto each pixel in the order of the
taps."""

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite._kernels import pool as pool_kernels

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
        index[(tap > y) | np.isnan(tap) & ~np.isnan(y)] = k
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
        with np.errstate(invalid='ignore'):  # inf + -inf where windows overlap
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


# The row kernels (windows inside the image along contiguous rows) against
# the one-by-one loop that a strided row takes, and against the reference.
# ksize, stride, pad, cover_all: the 2x2 kernel, other disjoint windows,
# overlapping ones, and padding whose inner windows still take the kernels.
FAST_CASES = [
    ((2, 2), (2, 2), (0, 0), False),
    ((2, 2), (2, 2), (0, 0), True),
    ((3, 3), (3, 3), (0, 0), True),
    ((2, 3), (2, 3), (0, 0), False),
    ((3, 3), (1, 1), (1, 1), False),
    ((2, 2), (2, 2), (1, 1), True),
    ((3, 2), (2, 2), (0, 1), True),
]
# (h, w): narrow and wide rows (past the vector loops), odd sizes whose last
# window reaches past the image when cover_all is True
SIZES = [(8, 8), (7, 9), (6, 40), (9, 37), (1, 1), (2, 3)]
SPECIAL = np.array([np.nan, -np.inf, np.inf, -0.0, 0.0, 1.0, -1.0, 2.0])


def _special_input(dtype, shape, seed):
    # few distinct values, so that windows hold ties of signed zeros, equal
    # values, infinities and NaNs in every order
    rng = np.random.RandomState(seed)
    return SPECIAL[rng.randint(0, len(SPECIAL), shape)].astype(dtype)


def _bits(a):
    # the bytes of each element, so that NaNs and signed zeros compare too
    return np.ascontiguousarray(a).view(np.uint8)


def _strided_copy(x):
    # the same values along rows of stride 2 (the one-by-one loop)
    big = np.zeros(x.shape[:3] + (2 * x.shape[3],), x.dtype)
    big[..., ::2] = x
    return big[..., ::2]


def _compiled(x, ksize, stride, pad, cover_all):
    n, c, h, w = x.shape
    oh, ow = (
        (d + 2 * p - k + (s - 1 if cover_all else 0)) // s + 1
        for d, k, s, p in zip((h, w), ksize, stride, pad)
    )
    y = np.empty((n, c, oh, ow), x.dtype)
    index = np.empty(y.shape, np.intp)
    pool_kernels.max_pooling_2d(x, y, index, *ksize, *stride, *pad)
    return y, index


def _compiled_grad(gy, index, shape, ksize, stride, pad):
    gx = np.zeros(shape, gy.dtype)
    pool_kernels.max_pooling_2d_grad(gy, index, gx, *ksize, *stride, *pad)
    return gx


@pytest.mark.parametrize('dtype', [np.float32, np.float64])
@pytest.mark.parametrize('size', SIZES)
@pytest.mark.parametrize('case', FAST_CASES)
def test_row_kernels_match_one_by_one_and_reference(dtype, size, case):
    ksize, stride, pad, cover_all = case
    h, w = size
    if any(d + 2 * p < k for d, k, p in zip(size, ksize, pad)):
        pytest.skip('no window fits')
    x = _special_input(dtype, (2, 3, h, w), seed=h * 100 + w)
    y, index = _compiled(x, ksize, stride, pad, cover_all)
    y_slow, index_slow = _compiled(_strided_copy(x), ksize, stride, pad, cover_all)
    expected, expected_index = _reference(x, ksize, stride, pad, cover_all)
    np.testing.assert_array_equal(_bits(y), _bits(y_slow))
    np.testing.assert_array_equal(index, index_slow)
    np.testing.assert_array_equal(y, expected)
    np.testing.assert_array_equal(np.signbit(y), np.signbit(expected))
    np.testing.assert_array_equal(index, expected_index)

    gy = _special_input(dtype, y.shape, seed=h * 100 + w + 1)
    gx = _compiled_grad(gy, index, x.shape, ksize, stride, pad)
    # a strided gy takes the one-by-one loop
    gx_slow = _compiled_grad(_strided_copy(gy), index, x.shape, ksize, stride, pad)
    np.testing.assert_array_equal(_bits(gx), _bits(gx_slow))
    np.testing.assert_array_equal(
        gx, _reference_grad(gy, index, ksize, stride, pad, x.shape)
    )


@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_row_kernels_take_views(dtype):
    # rows of unit stride in a view: channels and rows skipped, an offset
    # start, planes and rows farther apart than the image is wide
    base = _special_input(dtype, (3, 6, 20, 30), seed=5)
    x = base[::2, 1::2, 3::2, 5:25]
    assert x.strides[3] == x.itemsize and not x.flags.c_contiguous
    ksize, stride, pad = (2, 2), (2, 2), (0, 0)
    y, index = _compiled(x, ksize, stride, pad, True)
    y_ref, index_ref = _compiled(np.ascontiguousarray(x), ksize, stride, pad, True)
    np.testing.assert_array_equal(_bits(y), _bits(y_ref))
    np.testing.assert_array_equal(index, index_ref)
    gy = _special_input(dtype, y.shape + (2,), seed=6)[..., 0]  # gy rows strided
    gy2 = _special_input(dtype, (y.shape[0], y.shape[1], y.shape[2] * 2, y.shape[3]), 7)
    for g in (gy, gy2[:, :, ::2]):
        np.testing.assert_array_equal(
            _bits(_compiled_grad(g, index, x.shape, ksize, stride, pad)),
            _bits(_reference_grad(g, index, ksize, stride, pad, x.shape)),
        )


@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_max_pooling_2d_function_fast_path(dtype):
    # F.max_pooling_2d(x, 2) on an even image (the 2x2 kernels), forward
    # and backward, against the reference
    x = _special_input(dtype, (4, 5, 12, 34), seed=8)
    xv = chainerlite.Variable(x)
    y, index = F.max_pooling_2d(xv, 2, return_indices=True)
    expected, expected_index = _reference(x, (2, 2), (2, 2), (0, 0), True)
    np.testing.assert_array_equal(_bits(y.array), _bits(expected))
    np.testing.assert_array_equal(index, expected_index)
    gy = np.random.RandomState(9).uniform(-1, 1, y.shape).astype(dtype)
    y.grad = gy
    y.backward()
    np.testing.assert_array_equal(
        _bits(xv.grad),
        _bits(_reference_grad(gy, index, (2, 2), (2, 2), (0, 0), x.shape)),
    )


@pytest.mark.parametrize('dtype', [np.float32, np.float64])
@pytest.mark.parametrize(
    'view',
    [
        # planes one after the other (one block of rows for all of them):
        # C-contiguous, one channel, one image, rows wider than the image
        lambda a: np.ascontiguousarray(a[:, :, :, :8]),
        lambda a: np.ascontiguousarray(a[:, :1, :, :6]),
        lambda a: np.ascontiguousarray(a[:1, :, :, :6]),
        lambda a: a[:, :, :, 3:11],
        # planes not one after the other
        lambda a: a[:, :, :6, :8],
        lambda a: a[:, ::2, :, :8],
        lambda a: a[::2, :, :, :8],
    ],
)
def test_planes_stacked_or_not(dtype, view):
    base = _special_input(dtype, (3, 4, 8, 12), seed=10)
    x = view(base)
    ksize, stride, pad = (2, 2), (2, 2), (0, 0)
    y, index = _compiled(x, ksize, stride, pad, False)
    expected, expected_index = _reference(x, ksize, stride, pad, False)
    np.testing.assert_array_equal(_bits(y), _bits(expected))
    np.testing.assert_array_equal(index, expected_index)
    gy = _special_input(dtype, y.shape, seed=11)
    gy_view = np.zeros(gy.shape[:3] + (gy.shape[3] + 3,), dtype)[..., 1:-2]
    gy_view[...] = gy
    for g in (gy, gy_view):
        np.testing.assert_array_equal(
            _bits(_compiled_grad(g, index, x.shape, ksize, stride, pad)),
            _bits(_reference_grad(g, index, ksize, stride, pad, x.shape)),
        )


def _forward_args():
    x = np.zeros((2, 3, 4, 4), np.float32)
    return [x, np.empty((2, 3, 2, 2), np.float32), np.empty((2, 3, 2, 2), np.intp)]


def _read_only(a):
    a.flags.writeable = False
    return a


@pytest.mark.parametrize(
    'place, bad, message',
    [
        (0, np.zeros((2, 3, 4, 4), np.float16), 'float32 or float64'),
        (0, np.zeros((3, 4, 4), np.float32), '4-d'),
        (1, np.empty((2, 3, 2, 2), np.float64), 'dtype float32'),
        (1, np.empty((2, 3, 2, 4), np.float32)[..., ::2], 'C-contiguous'),
        (1, _read_only(np.empty((2, 3, 2, 2), np.float32)), 'read-only'),
        (1, np.empty((2, 2, 2, 2), np.float32), 'shapes do not match'),
        (2, np.empty((2, 3, 2, 2), np.int32), 'dtype'),
        (2, np.empty((2, 3, 2, 3), np.intp), 'shapes do not match'),
    ],
)
def test_bad_arrays_raise(place, bad, message):
    args = _forward_args()
    args[place] = bad
    with pytest.raises(ValueError, match='^max_pooling_2d: .*' + message):
        pool_kernels.max_pooling_2d(*args, 2, 2, 2, 2, 0, 0)
    with pytest.raises(TypeError):
        pool_kernels.max_pooling_2d(args[0].tolist(), *args[1:], 2, 2, 2, 2, 0, 0)


def test_bad_grad_arrays_raise():
    gy = np.zeros((2, 3, 2, 2), np.float32)
    index = np.zeros(gy.shape, np.intp)
    gx = np.zeros((2, 3, 4, 4), np.float32)
    with pytest.raises(ValueError, match='C-contiguous'):
        pool_kernels.max_pooling_2d_grad(gy, index, gx[..., ::-1], 2, 2, 2, 2, 0, 0)
    with pytest.raises(ValueError, match='C-contiguous'):
        idx = np.zeros((2, 3, 2, 4), np.intp)[..., ::2]
        pool_kernels.max_pooling_2d_grad(gy, idx, gx, 2, 2, 2, 2, 0, 0)
    with pytest.raises(ValueError, match='dtype float32'):
        pool_kernels.max_pooling_2d_grad(
            gy.astype(np.float64), index, gx, 2, 2, 2, 2, 0, 0
        )
    with pytest.raises(ValueError, match='^max_pooling_2d_grad: shapes do not match'):
        pool_kernels.max_pooling_2d_grad(gy, index, gx[:1], 2, 2, 2, 2, 0, 0)
    # a read-only index (the forward's, kept by the node) is taken
    pool_kernels.max_pooling_2d_grad(gy, _read_only(index), gx, 2, 2, 2, 2, 0, 0)


@pytest.mark.parametrize('cover_all', [False, True])
def test_large_arrays_shared_among_threads(cover_all):
    # past PARALLEL_MIN: planes stacked (even sizes) or done one by one
    # (odd ones, whose last windows reach past the image with cover_all)
    x = _special_input(np.float32, (4, 8, 65, 64), seed=12)
    for images in (np.ascontiguousarray(x[:, :, :64]), x[:, :, :, 1:]):
        y, index = _compiled(images, (2, 2), (2, 2), (0, 0), cover_all)
        expected, expected_index = _reference(images, (2, 2), (2, 2), (0, 0), cover_all)
        np.testing.assert_array_equal(_bits(y), _bits(expected))
        np.testing.assert_array_equal(index, expected_index)
        gy = _special_input(np.float32, y.shape, seed=13)
        np.testing.assert_array_equal(
            _bits(_compiled_grad(gy, index, images.shape, (2, 2), (2, 2), (0, 0))),
            _bits(_reference_grad(gy, index, (2, 2), (2, 2), (0, 0), images.shape)),
        )


def test_unaligned_inputs_are_taken():
    # x and gy whose data do not start at a multiple of their itemsize
    x = _special_input(np.float32, (2, 3, 6, 8), seed=14)
    buf = np.zeros(x.nbytes + 1, np.uint8)
    unaligned = np.frombuffer(buf[1:].data, np.float32).reshape(x.shape)
    unaligned[...] = x
    assert not unaligned.flags.aligned
    y, index = _compiled(unaligned, (2, 2), (2, 2), (0, 0), False)
    y_ref, index_ref = _compiled(x, (2, 2), (2, 2), (0, 0), False)
    np.testing.assert_array_equal(_bits(y), _bits(y_ref))
    np.testing.assert_array_equal(index, index_ref)
    gy = _special_input(np.float32, y.shape, seed=15)
    buf = np.zeros(gy.nbytes + 1, np.uint8)
    gy_unaligned = np.frombuffer(buf[1:].data, np.float32).reshape(gy.shape)
    gy_unaligned[...] = gy
    np.testing.assert_array_equal(
        _bits(_compiled_grad(gy_unaligned, index, x.shape, (2, 2), (2, 2), (0, 0))),
        _bits(_compiled_grad(gy, index, x.shape, (2, 2), (2, 2), (0, 0))),
    )


@pytest.mark.parametrize(
    'windows',
    [(0, 2, 2, 2, 0, 0), (2, 2, 0, 2, 0, 0), (2, 2, 2, -1, 0, 0), (2, 2, 2, 2, -1, 0)],
)
def test_bad_windows_raise(windows):
    with pytest.raises(ValueError, match='positive'):
        pool_kernels.max_pooling_2d(*_forward_args(), *windows)
    gy = np.zeros((2, 3, 2, 2), np.float32)
    gx = np.zeros((2, 3, 4, 4), np.float32)
    with pytest.raises(ValueError, match='positive'):
        pool_kernels.max_pooling_2d_grad(gy, np.zeros(gy.shape, np.intp), gx, *windows)


@pytest.mark.parametrize('pad', [0, 3])
@pytest.mark.parametrize('ksize', [10**9, 2**31 - 1])
def test_huge_windows_are_clipped_to_the_image(ksize, pad):
    # the case: the work is the 25 taps on the image, not ksize**2
    x = np.random.RandomState(0).permutation(25).astype(np.float32).reshape(1, 1, 5, 5)
    xv = chainerlite.Variable(x)
    y, index = F.max_pooling_2d(xv, ksize, pad=pad, return_indices=True)
    assert y.shape == (1, 1, 1, 1) and y.array[0, 0, 0, 0] == 24
    row, col = divmod(int(np.argmax(x)), 5)
    assert index[0, 0, 0, 0] == (row + pad) * ksize + col + pad
    y.grad = np.ones_like(y.array)
    y.backward()
    np.testing.assert_array_equal(xv.grad, (x == 24).astype(np.float32))


def test_overlapping_huge_windows_sum_in_tap_order():
    # two overlapping windows of 10**6 over a 5x5 image: the gradient of
    # each lands where the reference (one pass per tap) puts it
    x = np.random.RandomState(1).uniform(-1, 1, (2, 3, 5, 5)).astype(np.float32)
    ksize, stride, pad = 10**6, 10**6 - 1, 10**6 - 3
    xv = chainerlite.Variable(x)
    y, index = F.max_pooling_2d(xv, ksize, stride, pad, return_indices=True)
    near = (9, 9), (8, 8), (6, 6)  # the same windows, clipped: same maxima
    y_small = F.max_pooling_2d(x, *near)
    np.testing.assert_array_equal(y.array, y_small.array)
    gy = np.random.RandomState(2).uniform(-1, 1, y.shape).astype(np.float32)
    y.grad = gy
    y.backward()
    ys = chainerlite.Variable(x)
    y_small = F.max_pooling_2d(ys, *near)
    y_small.grad = gy
    y_small.backward()
    np.testing.assert_array_equal(xv.grad, ys.grad)


def test_ctrl_c_interrupts_a_long_pooling():
    # a pooling of about a minute on one thread ends at once on SIGINT
    import signal
    import subprocess
    import sys
    import time

    code = (
        'import numpy as np, chainerlite.functions as F\n'
        'x = np.zeros((16, 16, 1024, 1024), np.float32)\n'
        "print('ready', flush=True)\n"
        'F.max_pooling_2d(x, 64, stride=4)\n'
        "print('finished', flush=True)\n"
    )
    env = dict(__import__('os').environ, OMP_NUM_THREADS='1')
    proc = subprocess.Popen(
        [sys.executable, '-c', code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout.readline() == 'ready\n'
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        start = time.monotonic()
        out, err = proc.communicate(timeout=30)
        took = time.monotonic() - start
    finally:
        proc.kill()
    assert 'KeyboardInterrupt' in err and 'finished' not in out
    assert took < 3, 'ended {:.1f} s after SIGINT'.format(took)


@pytest.mark.parametrize('dtype', [np.float32, np.float64])
@pytest.mark.parametrize(
    'ksize, stride',
    [((2, 2), (2, 2)), ((3, 3), (1, 1)), ((3, 3), (2, 2)), ((3, 2), (1, 2))],
)
def test_vector_kernels_index_the_first_nan(dtype, ksize, stride):
    # contiguous rows of windows inside the image: the vectorised kernels,
    # where windows with NaN get their index after the loop over the taps
    rng = np.random.RandomState(1)
    x = rng.randint(-2, 3, (3, 4, 12, 13)).astype(dtype)
    x[rng.rand(*x.shape) < 0.05] = np.nan
    x[0, 0] = np.nan  # a plane of NaN
    expected, index = _reference(x, ksize, stride, (0, 0), False)
    y, got_index = F.max_pooling_2d(x, ksize, stride, 0, False, return_indices=True)
    np.testing.assert_array_equal(y.array, expected)
    np.testing.assert_array_equal(got_index, index)
