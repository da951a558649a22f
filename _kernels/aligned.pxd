# Arrays whose data starts on a 64-byte boundary (a cache line): NumPy's
# own start 16 bytes past one, so that each 64-byte vector load of a packed
# matrix read in 32-float panels would span two lines.
cimport numpy as cnp

import numpy


cdef inline cnp.ndarray aligned_empty(tuple shape, object dtype):
    # an uninitialised C-contiguous array of shape and dtype (of 4 or 8
    # bytes an element), its data 64-byte aligned: a view into a slightly
    # longer buffer
    cdef Py_ssize_t size = 1, skip
    for s in shape:
        size *= s
    cdef cnp.ndarray flat = numpy.empty(size + 16, dtype)
    cdef Py_ssize_t item = flat.itemsize
    skip = ((64 - <size_t>cnp.PyArray_DATA(flat) % 64) % 64) // item
    return flat[skip : skip + size].reshape(shape)
