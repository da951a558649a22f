"""Means of losses over a batch, rounded as Chainer 7.8.1 rounds them."""

import numpy

from chainerlite import backend


def divide_by_count(total, count, dtype):
    """``total / count`` in float64, rounded once to ``dtype``.

    Chainer divides a float16 or float32 sum by a Python int; NumPy 1 then
    computes in a dtype that holds the count (float64 from 65536 on), so a
    batch that float16 cannot count (inexact past 2048, infinite past
    65504) still gives its mean. Dividing in float64 and rounding once gives
    NumPy 1's bits (its float16 and float32 quotients round the same way)
    on NumPy 1 and 2 alike.

    Args:
        total (numpy.ndarray or cupy.ndarray): The sum (any shape).
        count (int): The divisor.
        dtype: The dtype of the result.

    Returns:
        numpy.ndarray or cupy.ndarray: The quotient, of ``total``'s shape.
    """
    xp = backend.get_array_module(total)
    quotient = xp.asarray(total, numpy.float64) / count
    return quotient.astype(dtype, copy=False)


def scaled_sum(loss, scale, dtype):
    """``loss.sum() * scale``, float16 summed and scaled in float32.

    Chainer sums float16 losses in a wider dtype: a float16 sum overflows
    past 65504, and ``1 / count`` of a large batch is subnormal in float16.
    The result is rounded once to ``dtype``; other dtypes are summed and
    scaled in their own.

    Args:
        loss (numpy.ndarray or cupy.ndarray): The losses.
        scale (float): The factor (``1 / count`` for a mean).
        dtype: The dtype of the result.

    Returns:
        The scaled sum, a scalar or 0-d array of ``dtype``.
    """
    total = loss.sum(dtype=summing_dtype(dtype))
    return (total * total.dtype.type(scale)).astype(dtype)


def summing_dtype(dtype):
    """float32 for float16 (whose sums overflow past 65504), else ``dtype``."""
    return numpy.dtype(numpy.float32 if dtype == numpy.float16 else dtype)
