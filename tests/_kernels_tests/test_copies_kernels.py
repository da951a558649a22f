"""The threads' copies of large strided arrays (``chainerlite._kernels.
copies``, behind the compiled Reshape, F.stack and F.separate's backward):
NumPy's bits with two threads, directly and through Variables; a copy
exactly where NumPy's reshape copies; and NumPy's own computation wherever
they decline. Each thread count runs in its own interpreter (OpenMP reads
it when it starts)."""

import itertools
import os

import numpy as np
import pytest

from chainerlite._kernels import copies

# layouts of at least 2**18 elements: (source array, shape to reshape to)
PROGRAM = r'''
import sys
import numpy as np
import chainerlite as chainer
import chainerlite.functions as F
from chainerlite._kernels import copies

rng = np.random.default_rng(5)
out = {}
for dtype in (np.float32, np.float64):
    tag = np.dtype(dtype).name
    base = rng.standard_normal((16, 4, 128, 65)).astype(dtype)
    # NaN with a payload, and -0.0: moved as bits
    base.view(np.uint32 if dtype == np.float32 else np.uint64)[0, 0, 0, :3] |= 5
    base[0, 0, 0, :3] = np.nan
    base[1, 1, 1, 1] = -0.0
    layouts = {
        'heads': (base[..., :64].transpose(0, 2, 1, 3), (16 * 128, 256)),
        'reversed': (base[::-1, :, ::-1], (-1, 65)),
        'strided': (base[:, :, ::2], (16, -1)),
        'broadcast': (np.broadcast_to(base[:1], base.shape), (64, -1)),
        'transposed': (base.reshape(-1, 520).T, (-1,)),
    }
    for name, (x, shape) in layouts.items():
        out[f'src_{name}_{tag}'] = np.ascontiguousarray(x)
        y = copies.c_copy(x)
        out[f'c_{name}_{tag}'] = np.zeros(0) if y is None else y
        y = copies.reshaped(x, shape)
        out[f'reshaped_{name}_{tag}'] = np.zeros(0) if y is None else y
        out[f'var_{name}_{tag}'] = F.reshape(chainer.Variable(x), shape).array
    parts = list(base.reshape(2, 8, 4, 128, 65))  # each of 2**18 or more
    out[f'parts_{tag}'] = np.stack(parts)
    for axis in (0, 2, -1):
        y = copies.stack(parts, axis)
        out[f'stack{axis}_{tag}'] = np.zeros(0) if y is None else y
        out[f'var_stack{axis}_{tag}'] = F.stack(parts, axis).array
    # separate's backward stacks the gradients of its outputs
    x = chainer.Variable(base.reshape(2, -1))
    ys = F.separate(x, axis=0)
    F.sum(ys[0] * 2.0 + ys[1] * 3.0).backward()
    out[f'separate_grad_{tag}'] = x.grad
np.savez(sys.argv[1], **out)
'''

NAMES = ('heads', 'reversed', 'strided', 'broadcast', 'transposed')
SHAPES = {
    'heads': (16 * 128, 256),
    'reversed': (-1, 65),
    'strided': (16, -1),
    'broadcast': (64, -1),
    'transposed': (-1,),
}


def _bits(a):
    return a.dtype, a.shape, a.tobytes()


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason='one CPU: no second thread')
def test_two_threads_give_numpys_bits(thread_results):
    out = thread_results(PROGRAM, 2)
    for tag in ('float32', 'float64'):
        for name in NAMES:
            src = out[f'src_{name}_{tag}']
            want = src.reshape(SHAPES[name])
            assert _bits(out[f'c_{name}_{tag}']) == _bits(src), (name, tag)
            assert _bits(out[f'reshaped_{name}_{tag}']) == _bits(want), (name, tag)
            assert _bits(out[f'var_{name}_{tag}']) == _bits(want), (name, tag)
        parts = list(out[f'parts_{tag}'])
        for axis in (0, 2, -1):
            want = np.stack(parts, axis)
            assert _bits(out[f'stack{axis}_{tag}']) == _bits(want), (axis, tag)
            assert _bits(out[f'var_stack{axis}_{tag}']) == _bits(want), (axis, tag)
        grad = out[f'separate_grad_{tag}']
        assert grad.shape == (2, 8 * 4 * 128 * 65)
        for i, scale in enumerate((2, 3)):
            assert (grad[i] == scale).all(), (i, tag)


def test_one_thread_declines(thread_results):
    out = thread_results(PROGRAM, 1)
    for tag in ('float32', 'float64'):
        for name in NAMES:
            assert out[f'c_{name}_{tag}'].size == 0
            assert out[f'reshaped_{name}_{tag}'].size == 0
            want = out[f'src_{name}_{tag}'].reshape(SHAPES[name])
            assert _bits(out[f'var_{name}_{tag}']) == _bits(want)
        assert out[f'stack0_{tag}'].size == 0


def _layouts(rng):
    # small arrays of every kind of layout: transposed, sliced, reversed,
    # with axes of one element, broadcast
    for _ in range(300):
        ndim = rng.integers(1, 5)
        shape = tuple(rng.integers(1, 5, ndim))
        x = np.arange(int(np.prod(shape)) * 8, dtype=np.float32)
        x = x[:: rng.integers(1, 3)][: int(np.prod(shape))].reshape(shape)
        x = x.transpose(rng.permutation(ndim))
        index = tuple(
            slice(None, None, int(rng.choice([1, -1, 2]))) for _ in range(x.ndim)
        )
        x = x[index]
        if rng.random() < 0.2:
            x = np.broadcast_to(x[:1], (3,) + x.shape[1:])
        yield x


def _reshapes(x, rng):
    # shapes of x's size: its factorisations into up to 4 axes (and -1)
    size = x.size
    divisors = [d for d in range(1, size + 1) if size % d == 0]
    for _ in range(6):
        shape, left = [], size
        for _ in range(rng.integers(0, 4)):
            d = int(rng.choice([d for d in divisors if left % d == 0]))
            shape.append(d)
            left //= d
        shape.append(left)
        if rng.random() < 0.3:
            shape[rng.integers(len(shape))] = -1
        yield tuple(shape)


def test_needs_copy_is_numpys_rule():
    rng = np.random.default_rng(0)
    checked = 0
    for x in _layouts(rng):
        for shape in itertools.chain(_reshapes(x, rng), [x.shape]):
            copied = not np.shares_memory(x.reshape(shape), x)
            assert copies.needs_copy(x, shape) == copied, (x.shape, x.strides, shape)
            checked += 1
    assert checked > 1000


N = 1 << 18
LARGE = np.ones((N // 512, 512), np.float32).T


@pytest.mark.parametrize(
    'x',
    [
        np.ones((512, 511), np.float32).T,  # small
        np.ones((N // 512, 512), np.float16).T,
        np.ones((N // 512, 512), np.int32).T,
        np.ones((N // 512, 512)).view(np.matrix).T,
        LARGE.tolist(),
        np.frombuffer(b'\0' + bytes(4 * N), np.float32, N, 1)[::-1],  # unaligned
    ],
)
def test_declines(x):
    assert copies.c_copy(x) is None
    assert copies.reshaped(x, (-1,)) is None
    assert copies.stack([x, x]) is None


def test_reshaped_declines_a_view():
    x = np.ones((4, N), np.float32)[:, ::2]  # rows stay rows
    assert not copies.needs_copy(x, (2, 2, N // 2))
    assert copies.reshaped(x, (2, 2, N // 2)) is None
    assert copies.reshaped(np.ones(N, np.float32), (N // 2, 2)) is None


@pytest.mark.parametrize(
    'xs, axis',
    [
        ([LARGE, LARGE.astype(np.float64)], 0),  # dtypes differ
        ([LARGE, LARGE[:-1]], 0),  # shapes differ
        ([LARGE, LARGE], 3),  # axis out of range
        ([LARGE, LARGE], -4),
        ([], 0),
        (LARGE, 0),  # an array, not a list of arrays
        ([LARGE, 1.0], 0),
    ],
)
def test_stack_declines(xs, axis):
    assert copies.stack(xs, axis) is None


def test_needs_copy_refuses_other_types():
    with pytest.raises(TypeError, match='needs_copy'):
        copies.needs_copy([1.0, 2.0], (2,))
