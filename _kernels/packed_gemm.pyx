# cython: boundscheck=False, wraparound=False
# build: openmp
# (openmp: the column panels of a product are shared among the threads)
"""Products of a few rows against a matrix packed once: the recurrent
products of an RNN's steps (``h @ w.T`` forward, ``g @ w`` backward, the
same ``w`` at every step).

OpenBLAS runs a product of 20 or 64 rows against a 650 x 2600 matrix at
about half its speed on large ones: it packs the matrix again at every
call, and its kernels are made for a long M. :func:`pack` lays the matrix
out once in panels of 32 columns (the rows of the reduction axis of each
panel contiguous, the last panel padded with zeros); :func:`matmul` then
runs an AVX-512 kernel over the panels, ten rows of the left operand
against each panel at a time, accumulating in float32 registers. The
panels are shared among OpenMP's threads.

Both decline (return None) for what they do not take: another dtype than
float32, arrays that are not NumPy's or not 2-d, an empty product, a CPU
without AVX-512F (or a compiler that cannot build it); the caller then
keeps NumPy's matmul.
"""
cimport numpy as cnp
from cython.parallel cimport prange

from chainerlite._kernels.aligned cimport aligned_empty
from chainerlite._kernels.argcheck cimport array_span, overlap
from chainerlite._kernels.chunks cimport Chunks, chunks, cl_max_threads, next_chunk
from chainerlite._kernels.dtypes cimport float32, descr_of

import numpy

cnp.import_array()

#: Sums of float32 products in another order than BLAS's: a relative
#: 1e-5 of the sum of the products' magnitudes.
PRECISION = 'rtol 1e-5 float32'

cdef extern from "packed_tile.h" nogil:
    int CL_NR
    void cl_pg_panel(Py_ssize_t m, Py_ssize_t k, const float* a,
                     Py_ssize_t lda, const float* panel, const float* d,
                     Py_ssize_t ldd, float* c, Py_ssize_t ldc, int nc)
    void cl_pg_pack(const float* w, Py_ssize_t rows, Py_ssize_t cols,
                    int transposed, Py_ssize_t p, float* panel)
    int cl_pg_cpu()

cdef bint _cpu = cl_pg_cpu()
#: Multiply-adds below which one thread does a product.
cdef Py_ssize_t PARALLEL_MIN = 1 << 22


cdef class Packed:
    """A matrix ``b`` (``k`` x ``n``) laid out for :func:`matmul`."""

    cdef readonly Py_ssize_t k
    cdef readonly Py_ssize_t n
    cdef cnp.ndarray panels


cdef bint _takes(a):
    return (type(a) is numpy.ndarray and cnp.PyArray_NDIM(<cnp.ndarray>a) == 2
            and descr_of(<cnp.ndarray>a) is float32()
            and cnp.PyArray_SIZE(<cnp.ndarray>a) > 0)


def pack(w, transposed):
    """``w.T`` (``transposed``) or ``w`` laid out for :func:`matmul`: a
    :class:`Packed`, or None where the kernel does not take ``w``."""
    if not _cpu or not _takes(w):
        return None
    cdef cnp.ndarray a = numpy.ascontiguousarray(w)
    cdef int t = 1 if transposed else 0
    cdef Packed b = Packed()
    b.k = a.shape[1] if t else a.shape[0]
    b.n = a.shape[0] if t else a.shape[1]
    cdef Py_ssize_t p, count = (b.n + CL_NR - 1) // CL_NR
    b.panels = aligned_empty((count, b.k, CL_NR), numpy.float32)
    cdef const float* src = <const float*>cnp.PyArray_DATA(a)
    cdef float* dst = <float*>cnp.PyArray_DATA(b.panels)
    cdef Py_ssize_t rows = a.shape[0], cols = a.shape[1], size = b.k * CL_NR
    cdef Chunks todo = chunks(count, size, 1)
    while next_chunk(&todo):
        with nogil:
            for p in range(todo.begin, todo.end):
                cl_pg_pack(src, rows, cols, t, p, dst + p * size)
    return b


cdef bint _rows(a, Py_ssize_t m, Py_ssize_t n):
    # a is an (m, n) float32 ndarray of rows of contiguous elements
    if not (type(a) is numpy.ndarray and cnp.PyArray_NDIM(<cnp.ndarray>a) == 2
            and descr_of(<cnp.ndarray>a) is float32()
            and a.shape[0] == m and a.shape[1] == n):
        return False
    cdef cnp.ndarray r = <cnp.ndarray>a
    return (r.strides[1] == 4 and r.strides[0] % 4 == 0 and r.strides[0] >= 4 * n
            and cnp.PyArray_ISALIGNED(r))


def matmul(x, Packed b, out=None, add=None):
    """``x @ b`` (plus ``add``, an array of the product's shape, where
    given): written into ``out`` (a float32 array of the product's shape,
    rows of contiguous elements, apart from ``x`` and ``add``) and
    returned, or a new array without ``out``; None where the kernel does
    not take ``x``, ``out`` or ``add`` (then nothing is written)."""
    if b is None or not _takes(x) or x.shape[1] != b.k:
        return None
    cdef cnp.ndarray a = <cnp.ndarray>x
    if a.strides[1] != 4 or a.strides[0] % 4 or not cnp.PyArray_ISALIGNED(a):
        a = numpy.ascontiguousarray(a)
    cdef Py_ssize_t m = a.shape[0], k = b.k, n = b.n, p
    if add is not None and not _rows(add, m, n):
        return None
    if out is None:
        out = numpy.empty((m, n), numpy.float32)
    elif not (_rows(out, m, n) and cnp.PyArray_ISWRITEABLE(<cnp.ndarray>out)
              and not overlap(array_span(out), array_span(a))
              and (add is None or not overlap(array_span(out), array_span(add)))):
        return None
    cdef Py_ssize_t lda = a.strides[0] // 4, ldc = out.strides[0] // 4
    cdef Py_ssize_t ldd = add.strides[0] // 4 if add is not None else 0
    cdef const float* pa = <const float*>cnp.PyArray_DATA(a)
    cdef const float* pb = <const float*>cnp.PyArray_DATA(b.panels)
    cdef const float* pd = (<const float*>cnp.PyArray_DATA(<cnp.ndarray>add)
                            if add is not None else NULL)
    cdef float* pc = <float*>cnp.PyArray_DATA(<cnp.ndarray>out)
    cdef Py_ssize_t count = (n + CL_NR - 1) // CL_NR, size = k * CL_NR
    cdef int threads = cl_max_threads() if m * k * n >= PARALLEL_MIN else 1
    cdef Chunks todo = chunks(count, m * k * CL_NR // 16 + 1, threads)
    while next_chunk(&todo):
        with nogil:
            if threads > 1:
                for p in prange(todo.begin, todo.end, num_threads=threads,
                                schedule='static'):
                    _panel(m, k, pa, lda, pb + p * size, pd, ldd, pc, ldc, n, p)
            else:
                for p in range(todo.begin, todo.end):
                    _panel(m, k, pa, lda, pb + p * size, pd, ldd, pc, ldc, n, p)
    return out


cdef inline void _panel(Py_ssize_t m, Py_ssize_t k, const float* a,
                        Py_ssize_t lda, const float* panel, const float* d,
                        Py_ssize_t ldd, float* c, Py_ssize_t ldc, Py_ssize_t n,
                        Py_ssize_t p) noexcept nogil:
    # the columns of panel p
    cdef Py_ssize_t first = p * CL_NR
    cl_pg_panel(m, k, a, lda, panel, d + first if d != NULL else NULL, ldd,
                c + first, ldc, CL_NR if n - first > CL_NR else n - first)
