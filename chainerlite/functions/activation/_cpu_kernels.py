"""Calls of the compiled CPU kernels of the activations.

The kernels (``chainerlite._core.act_kernels``) take flattened C-contiguous
float32/float64 NumPy arrays; other inputs (float16, CuPy arrays, mixed
dtypes) keep their NumPy or CuPy path.
"""

import numpy

_DTYPES = (numpy.float32, numpy.float64)


def takes(*arrays):
    """Tells whether the kernels take ``arrays``: aligned NumPy arrays of
    one shape and one dtype, float32 or float64."""
    first = arrays[0]
    return (
        all(type(a) is numpy.ndarray for a in arrays)
        and first.dtype in _DTYPES
        and all(
            a.dtype == first.dtype and a.shape == first.shape and a.flags.aligned
            for a in arrays
        )
    )


def elementwise(kernel, arrays, *scalars):
    """Runs ``kernel(*flat arrays, flat output, *scalars)`` and returns the
    output, of the shape and dtype of ``arrays[0]``."""
    out = numpy.empty(arrays[0].shape, arrays[0].dtype)
    kernel(*[a.ravel() for a in arrays], out.reshape(-1), *scalars)
    return out
