"""Deterministic test inputs: increasing values over a shape."""

import numpy as np


def shaped_range(*shape, dtype=np.float32):
    """``0, 1, 2, ...`` arranged in ``shape`` (integer array)."""
    return np.arange(int(np.prod(shape))).reshape(shape)


def _increasing(*shape, dtype=np.float32, negative=True, bias=0):
    values = shaped_range(*shape, dtype=dtype)
    if negative:
        values -= values.size // 2
    if dtype in (np.float32, np.float64):
        values = values * 0.5
    values += bias
    return values.astype(dtype)


def increasing(*shape, dtype=np.float32):
    """Increasing values centred on zero, in steps of 0.5 for float dtypes."""
    return _increasing(*shape, dtype=dtype)


def nonzero_increasing(*shape, dtype=np.float32, bias=1e-7):
    """As :func:`increasing` shifted by ``bias``, so no element is zero."""
    if dtype not in (np.float32, np.float64):
        raise ValueError(
            'nonzero_increasing: dtype must be float32 or float64, not {}'.format(dtype)
        )
    return _increasing(*shape, dtype=dtype, bias=bias)


def positive_increasing(*shape, dtype=np.float32, bias=1e-7):
    """Increasing values from ``bias`` upwards (for log, sqrt, ...)."""
    return _increasing(*shape, dtype=dtype, negative=False, bias=bias)
