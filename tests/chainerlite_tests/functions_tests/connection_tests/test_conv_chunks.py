"""im2col + BLAS over the batch in chunks (_conv_utils._CHUNK_BYTES): the
same results and gradients as in one piece, no column matrix kept after the
forward, and no column matrix of the whole batch made in the products."""

import gc
import tracemalloc

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.functions.connection import _conv_utils

# (dtype, x shape, W shape, keyword arguments): none takes the direct kernels
# (float32 ones have stride, dilation, groups or too many weights for them)
CASES = [
    (numpy.float64, (5, 4, 7, 6), (6, 4, 3, 3), dict(pad=1)),
    (numpy.float32, (5, 4, 9, 8), (6, 2, 3, 2), dict(stride=2, pad=1, groups=2)),
    (numpy.float32, (3, 4, 9, 8), (4, 4, 3, 3), dict(pad=2, dilate=2)),
    (numpy.float64, (4, 3, 7, 7), (2, 3, 3, 3), dict(stride=3, cover_all=True)),
    (numpy.float16, (3, 2, 5, 5), (3, 2, 2, 2), dict(pad=1)),
    (numpy.float64, (3, 2, 5, 4, 4), (3, 2, 2, 3, 2), dict(stride=(1, 2, 1))),
]
IDS = ['f64', 'stride-groups', 'dilate', 'cover_all', 'f16', '3d']


def _conv(x, W, b, kwargs):
    if x.ndim == 4:
        return F.convolution_2d(x, W, b, **kwargs)
    return F.convolution_nd(x, W, b, **kwargs)


def _step(case, seed=0):
    """Output and the three gradients of one convolution (and its input
    gradient's double-backward pieces through the transpose)."""
    dtype, x_shape, w_shape, kwargs = case
    rng = numpy.random.default_rng(seed)
    x = chainerlite.Variable(rng.standard_normal(x_shape).astype(dtype))
    W = chainerlite.Variable((rng.standard_normal(w_shape) * 0.3).astype(dtype))
    b = chainerlite.Variable(rng.standard_normal(w_shape[0]).astype(dtype))
    y = _conv(x, W, b, kwargs)
    y.grad = rng.standard_normal(y.shape).astype(dtype)
    y.backward()
    return y.array, x.grad, W.grad, b.grad


@pytest.mark.parametrize('case', CASES, ids=IDS)
@pytest.mark.parametrize('budget', [1, 2])  # images per chunk: 1, or 2 (uneven)
def test_chunked_equals_whole(monkeypatch, case, budget):
    whole = _step(case)
    dtype, x_shape, w_shape, kwargs = case
    image = _conv_utils._column_bytes(
        x_shape[1], w_shape[2:], x_shape[2:], dtype
    )  # at least one output image's columns
    monkeypatch.setattr(_conv_utils, '_CHUNK_BYTES', budget * image)
    chunked = _step(case)
    tol = 2e-2 if dtype == numpy.float16 else 1e-5
    for got, expected in zip(chunked, whole):
        assert got.dtype == expected.dtype and got.shape == expected.shape
        numpy.testing.assert_allclose(got, expected, rtol=tol, atol=tol)


def test_batch_chunks():
    x = numpy.zeros((7, 2, 3, 3), numpy.float32)
    monkeypatch = pytest.MonkeyPatch()
    with monkeypatch.context() as m:
        m.setattr(_conv_utils, '_CHUNK_BYTES', 300)
        assert _conv_utils.batch_chunks(x, 100) == [
            slice(0, 3),
            slice(3, 6),
            slice(6, 7),
        ]
        assert _conv_utils.batch_chunks(x, 1000) == [slice(i, i + 1) for i in range(7)]
        assert _conv_utils.batch_chunks(x[:0], 100) == [slice(0, 0)]
        assert _conv_utils.batch_chunks(x, 0) == [slice(0, 7)]


@pytest.mark.parametrize('case', CASES[:4], ids=IDS[:4])
def test_check_backward_in_chunks(monkeypatch, case):
    dtype, x_shape, w_shape, kwargs = case
    monkeypatch.setattr(_conv_utils, '_CHUNK_BYTES', 1)
    rng = numpy.random.default_rng(1)
    x = rng.standard_normal(x_shape)
    W = rng.standard_normal(w_shape) * 0.3
    b = rng.standard_normal(w_shape[0])
    gy = rng.standard_normal(_conv(x, W, b, kwargs).shape)
    gradient_check.check_backward(
        lambda x, W, b: _conv(x, W, b, kwargs), (x, W, b), gy, atol=1e-6, rtol=1e-5
    )


def test_empty_batch():
    x = chainerlite.Variable(numpy.zeros((0, 3, 5, 5)))
    W = chainerlite.Variable(numpy.ones((4, 3, 3, 3)))
    y = F.convolution_2d(x, W, numpy.ones(4))
    assert y.shape == (0, 4, 3, 3)
    y.grad = numpy.zeros(y.shape)
    y.backward()
    assert x.grad.shape == (0, 3, 5, 5)
    numpy.testing.assert_array_equal(W.grad, numpy.zeros((4, 3, 3, 3)))


def _traced(fn):
    """(bytes still held after ``fn``, peak bytes during it), above its start."""
    gc.collect()
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        result = fn()
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, held - start, peak - start


# float64 (no direct kernel): 8 images of 8 channels 16x16, 3x3 filters;
# the column matrix of the batch is 9 times the input
X_SHAPE, W_SHAPE = (8, 8, 16, 16), (8, 8, 3, 3)
COLUMN_BYTES = 8 * 9 * 8 * 16 * 16 * 8
OUTPUT_BYTES = 8 * 8 * 16 * 16 * 8


def _leaves():
    rng = numpy.random.default_rng(2)
    x = chainerlite.Variable(rng.standard_normal(X_SHAPE))
    return x, chainerlite.Variable(rng.standard_normal(W_SHAPE))


def test_forward_keeps_no_column_matrix():
    x, W = _leaves()
    y, held, _ = _traced(lambda: F.convolution_2d(x, W, pad=1))
    # the graph retains x and W (already held); the output is new
    assert held < OUTPUT_BYTES + COLUMN_BYTES // 8
    y.grad = numpy.ones(y.shape)
    y.backward()  # the filter gradient still comes (from new columns)
    assert W.grad.shape == W_SHAPE


def test_products_make_chunk_sized_columns(monkeypatch):
    x, W = _leaves()
    monkeypatch.setattr(_conv_utils, '_CHUNK_BYTES', COLUMN_BYTES // 8)  # 1 image
    y, _, forward_peak = _traced(lambda: F.convolution_2d(x, W, pad=1))
    assert forward_peak < OUTPUT_BYTES + COLUMN_BYTES // 4
    y.grad = numpy.ones(y.shape)
    _, _, backward_peak = _traced(y.backward)
    # the input and filter gradients, and one chunk's columns at a time
    assert backward_peak < OUTPUT_BYTES + COLUMN_BYTES // 4
