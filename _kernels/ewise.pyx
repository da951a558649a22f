# build: openmp
# (OpenMP threads share the elements)
"""The sum and product of two large float32/float64 arrays of one shape,
and the product of one with a constant, with the elements shared by
OpenMP's threads (the loops are in the C below).

NumPy's ``a + b``, ``a * b`` and ``a * c`` run on one thread; the compiled
core's Add, Mul and MulConstant call these first. Each element is one
correctly rounded operation, so the results are NumPy's bit for bit (NaN
payloads aside) on any thread count. They return None, and the caller
keeps NumPy, where they do not apply: fewer than ``PARALLEL_MIN_WORK``
elements or one thread allowed, another dtype or array type, operands that
differ in dtype or shape (a constant: a 0-d array of the other's dtype) or
are not aligned C-contiguous blocks; and where an element overflowed,
underflowed or was invalid (``inf - inf``, ``0 * inf``), so that NumPy
computes it again and warns or raises as its error state says. Ctrl-C is
looked for between chunks (``chunks.pxd``).
"""
cimport numpy as cnp
from cython.parallel cimport prange

from chainerlite._kernels.chunks cimport (
    PARALLEL_MIN_WORK, Chunks, chunks, cl_max_threads, cut, next_chunk,
    parts_of)
from chainerlite._kernels.dtypes cimport float32, float64, descr_of

cnp.import_array()

#: ``a + b``, ``a * b`` and ``a * c``, bit for bit.
PRECISION = 'bitwise NumPy'

cdef extern from * nogil:
    """
    /* y = a + b, a * b or a * c over elements [0, n), one pass that the
     * compiler vectorises, cloned for the CPU (CL_CLONES, dispatch.h); returns
     * nonzero where an element overflowed, underflowed or was invalid (the
     * calling thread's floating-point flags, cleared first) */

    #include <fenv.h>
    #include <stddef.h>

    #include "dispatch.h"

    #define CL_FLAGGED (FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID)

    #define CL_EWISE_LOOP(NAME, OP, T, SUFFIX)                                 \
        CL_CLONES static int cl_##NAME##_##SUFFIX(                             \
            const T *a, const T *b, T *y, ptrdiff_t n) {                       \
            feclearexcept(CL_FLAGGED);                                         \
            for (ptrdiff_t i = 0; i < n; i++)                                  \
                y[i] = a[i] OP b[i];                                           \
            return fetestexcept(CL_FLAGGED) != 0;                              \
        }

    #define CL_SCALE_LOOP(T, SUFFIX)                                           \
        CL_CLONES static int cl_scale_##SUFFIX(                                \
            const T *a, const T *c, T *y, ptrdiff_t n) {                       \
            const T k = *c;                                                    \
            feclearexcept(CL_FLAGGED);                                         \
            for (ptrdiff_t i = 0; i < n; i++)                                  \
                y[i] = a[i] * k;                                               \
            return fetestexcept(CL_FLAGGED) != 0;                              \
        }

    CL_EWISE_LOOP(add, +, float, f32)
    CL_EWISE_LOOP(add, +, double, f64)
    CL_EWISE_LOOP(mul, *, float, f32)
    CL_EWISE_LOOP(mul, *, double, f64)
    CL_SCALE_LOOP(float, f32)
    CL_SCALE_LOOP(double, f64)
    """
    int cl_add_f32(const float* a, const float* b, float* y, Py_ssize_t n)
    int cl_add_f64(const double* a, const double* b, double* y, Py_ssize_t n)
    int cl_mul_f32(const float* a, const float* b, float* y, Py_ssize_t n)
    int cl_mul_f64(const double* a, const double* b, double* y, Py_ssize_t n)
    int cl_scale_f32(const float* a, const float* c, float* y, Py_ssize_t n)
    int cl_scale_f64(const double* a, const double* c, double* y,
                     Py_ssize_t n)


cdef enum:
    # what _part computes
    ADD, MUL, SCALE


cdef inline int _part(int op, bint single, const char* a, const char* b,
                      char* y, Py_ssize_t i, Py_ssize_t e) noexcept nogil:
    # elements [i, e) (b: the constant for SCALE); nonzero where one
    # overflowed, underflowed or was invalid
    cdef Py_ssize_t n = e - i
    if op == SCALE and single:
        return cl_scale_f32(<const float*>a + i, <const float*>b,
                            <float*>y + i, n)
    if op == SCALE:
        return cl_scale_f64(<const double*>a + i, <const double*>b,
                            <double*>y + i, n)
    cdef bint mul = op == MUL
    if single and mul:
        return cl_mul_f32(<const float*>a + i, <const float*>b + i,
                          <float*>y + i, n)
    if single:
        return cl_add_f32(<const float*>a + i, <const float*>b + i,
                          <float*>y + i, n)
    if mul:
        return cl_mul_f64(<const double*>a + i, <const double*>b + i,
                          <double*>y + i, n)
    return cl_add_f64(<const double*>a + i, <const double*>b + i,
                      <double*>y + i, n)


cdef inline bint _plain(cnp.ndarray a):
    return (cnp.PyArray_IS_C_CONTIGUOUS(a) and cnp.PyArray_ISALIGNED(a)
            and (descr_of(a) is float32() or descr_of(a) is float64()))


cdef object _shared(int op, a, b):
    # the result of the threads, or None
    cdef cnp.ndarray x = <cnp.ndarray>a
    cdef cnp.ndarray w = <cnp.ndarray>b
    cdef int threads = cl_max_threads()
    if threads < 2 or not (_plain(x) and _plain(w)):
        return None
    if descr_of(x) is not descr_of(w):
        return None
    if (cnp.PyArray_NDIM(w) != 0 if op == SCALE
            else not cnp.PyArray_SAMESHAPE(x, w)):
        return None
    cdef cnp.ndarray y = cnp.PyArray_EMPTY(
        cnp.PyArray_NDIM(x), cnp.PyArray_DIMS(x), cnp.PyArray_TYPE(x), 0)
    cdef bint single = descr_of(x) is float32()
    cdef const char* xd = <const char*>cnp.PyArray_DATA(x)
    cdef const char* wd = <const char*>cnp.PyArray_DATA(w)
    cdef char* yd = <char*>cnp.PyArray_DATA(y)
    cdef int parts, flagged = 0
    cdef Py_ssize_t t
    # an element: about 1 unit of work (see chunks.pxd), memory bound
    cdef Chunks todo = chunks(cnp.PyArray_SIZE(x), 1, threads)
    while next_chunk(&todo):
        parts = parts_of(todo.end - todo.begin, 1, threads)
        with nogil:
            for t in prange(parts, schedule='static', num_threads=parts,
                            use_threads_if=parts > 1):
                flagged |= _part(op, single, xd, wd, yd,
                                 cut(todo.begin, todo.end, parts, t),
                                 cut(todo.begin, todo.end, parts, t + 1))
    return None if flagged else y


cdef inline object _large(int op, a, b):
    # _shared's result where a is a large array and b an array, or None
    if (type(a) is not cnp.ndarray or type(b) is not cnp.ndarray
            or cnp.PyArray_SIZE(<cnp.ndarray>a) < PARALLEL_MIN_WORK):
        return None
    return _shared(op, a, b)


cdef object add_arrays(a, b):
    """``a + b`` of two large arrays by the threads, or None."""
    return _large(ADD, a, b)


cdef object mul_arrays(a, b):
    """``a * b`` of two large arrays by the threads, or None."""
    return _large(MUL, a, b)


cdef object scale_array(a, c):
    """``a * c`` of a large array and a 0-d array of its dtype by the
    threads, or None."""
    return _large(SCALE, a, c)


def add(a, b):
    """:func:`add_arrays` from Python (for tests)."""
    return add_arrays(a, b)


def mul(a, b):
    """:func:`mul_arrays` from Python (for tests)."""
    return mul_arrays(a, b)


def scale(a, c):
    """:func:`scale_array` from Python (for tests)."""
    return scale_array(a, c)
