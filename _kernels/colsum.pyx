# build: openmp
# (OpenMP threads share the columns)
"""The sum over the first axis of a large 2-d float32/float64 array (a
bias gradient: ``gy.sum(0)``), with the columns shared by OpenMP's threads
(the loop is in the C below).

NumPy sums a C-contiguous ``(n, m)`` array over its first axis row by row
where ``m`` is 2 or more: zero, then each row added to it in turn, in the
array's dtype (its pairwise summation runs along a contiguous summed
axis, which this is not). Here each thread takes a block of columns and
adds the rows in that order, so the results are NumPy's bit for bit on any
thread count. :func:`column_sums` returns None, and the caller keeps NumPy,
where it does not apply: fewer than ``PARALLEL_MIN_WORK`` elements or one
thread allowed, another dtype or array type, not a 2-d aligned
C-contiguous array, fewer than 2 columns; and where a sum overflowed or was
invalid (``inf - inf``), so that NumPy computes it again and warns or
raises as its error state says. Ctrl-C is looked for between chunks
(``chunks.pxd``).
"""
cimport numpy as cnp
from cython.parallel cimport prange

from chainerlite._kernels.chunks cimport (
    PARALLEL_MIN_WORK, Chunks, chunks, cl_max_threads, cut, next_chunk,
    parts_of)
from chainerlite._kernels.dtypes cimport float32, float64, descr_of

cnp.import_array()

#: ``x.sum(0)``, bit for bit.
PRECISION = 'bitwise NumPy'

cdef extern from * nogil:
    """
    #include <fenv.h>
    #include <stddef.h>

    #include "dispatch.h"

    #define CL_SUM_FLAGGED (FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID)

    /* y[j] = ((0 + x[0, j]) + x[1, j]) + ... in that order, for the columns
     * [j0, j1) of the (n, m) array x; nonzero where a sum overflowed or was
     * invalid (the calling thread's floating-point flags, cleared first) */
    #define CL_COLSUM_LOOP(T, SUFFIX)                                          \\
        CL_CLONES static int cl_colsum_##SUFFIX(                               \\
            const T *x, T *y, ptrdiff_t n, ptrdiff_t m, ptrdiff_t j0,          \\
            ptrdiff_t j1) {                                                    \\
            feclearexcept(CL_SUM_FLAGGED);                                     \\
            for (ptrdiff_t j = j0; j < j1; j++)                                \\
                y[j] = (T)0 + x[j];                                            \\
            for (ptrdiff_t i = 1; i < n; i++) {                                \\
                const T *row = x + i * m;                                      \\
                for (ptrdiff_t j = j0; j < j1; j++)                            \\
                    y[j] += row[j];                                            \\
            }                                                                  \\
            return fetestexcept(CL_SUM_FLAGGED) != 0;                          \\
        }

    CL_COLSUM_LOOP(float, f32)
    CL_COLSUM_LOOP(double, f64)
    """
    int cl_colsum_f32(const float* x, float* y, Py_ssize_t n, Py_ssize_t m,
                      Py_ssize_t j0, Py_ssize_t j1)
    int cl_colsum_f64(const double* x, double* y, Py_ssize_t n,
                      Py_ssize_t m, Py_ssize_t j0, Py_ssize_t j1)


cdef object column_sums(x):
    """``x.sum(0)`` of a large 2-d array by the threads, or None."""
    if type(x) is not cnp.ndarray:
        return None
    cdef cnp.ndarray a = <cnp.ndarray>x
    if (cnp.PyArray_NDIM(a) != 2 or cnp.PyArray_SIZE(a) < PARALLEL_MIN_WORK
            or cnp.PyArray_DIM(a, 1) < 2):
        return None
    cdef int threads = cl_max_threads()
    d = descr_of(a)
    if (threads < 2 or (d is not float32() and d is not float64())
            or not cnp.PyArray_IS_C_CONTIGUOUS(a)
            or not cnp.PyArray_ISALIGNED(a)):
        return None
    cdef Py_ssize_t n = cnp.PyArray_DIM(a, 0), m = cnp.PyArray_DIM(a, 1)
    cdef cnp.ndarray y = cnp.PyArray_EMPTY(
        1, <cnp.npy_intp*>&m, cnp.PyArray_TYPE(a), 0)
    cdef bint single = d is float32()
    cdef const void* xd = cnp.PyArray_DATA(a)
    cdef void* yd = cnp.PyArray_DATA(y)
    cdef int parts, flagged = 0
    cdef Py_ssize_t t, j0, j1
    # a column: about n units of work (see chunks.pxd)
    cdef Chunks todo = chunks(m, n, threads)
    while next_chunk(&todo):
        parts = parts_of(todo.end - todo.begin, n, threads)
        with nogil:
            for t in prange(parts, schedule='static', num_threads=parts,
                            use_threads_if=parts > 1):
                j0 = cut(todo.begin, todo.end, parts, t)
                j1 = cut(todo.begin, todo.end, parts, t + 1)
                if single:
                    flagged |= cl_colsum_f32(<const float*>xd, <float*>yd,
                                             n, m, j0, j1)
                else:
                    flagged |= cl_colsum_f64(<const double*>xd,
                                             <double*>yd, n, m, j0, j1)
    return None if flagged else y


def column_sum(x):
    """:func:`column_sums` from Python (for tests)."""
    return column_sums(x)
