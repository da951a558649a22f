import numpy

import chainerlite
from chainerlite.chainermn.communicators import _memory_utility


def test_pack_scales_and_casts_in_one_buffer():
    arrays = [
        numpy.arange(6, dtype=numpy.float64).reshape(2, 3),
        numpy.full((), 3, dtype=numpy.float16),
        numpy.arange(8, dtype=numpy.float32).reshape(2, 4)[:, ::2],  # strided
    ]
    expected = numpy.concatenate([a.ravel() * 0.5 for a in arrays])
    buffer = _memory_utility.pack(arrays, numpy.float32, scale=0.5)
    assert buffer.dtype == numpy.float32 and buffer.shape == (11,)
    numpy.testing.assert_array_equal(buffer, expected.astype(numpy.float32))
    kept = numpy.empty(11, dtype=numpy.float32)
    assert _memory_utility.pack(arrays, numpy.float32, out=kept) is kept
    numpy.testing.assert_array_equal(kept, 2 * expected.astype(numpy.float32))


def test_unpack_grads_views_of_the_buffer_dtype_copies_otherwise():
    wide = chainerlite.Parameter(numpy.zeros((2, 2), dtype=numpy.float32))
    half = chainerlite.Parameter(numpy.zeros(3, dtype=numpy.float16))
    wide.grad = numpy.zeros((2, 2), dtype=numpy.float32)
    half.grad = numpy.zeros(3, dtype=numpy.float16)
    half_grad = half.grad
    buffer = numpy.arange(7, dtype=numpy.float32)
    _memory_utility.unpack_grads(buffer, [wide, half])
    assert wide.grad.base is buffer
    numpy.testing.assert_array_equal(wide.grad, [[0, 1], [2, 3]])
    assert half.grad is half_grad
    numpy.testing.assert_array_equal(half_grad, [4, 5, 6])
