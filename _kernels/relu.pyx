# build: openmp
# (OpenMP threads share the elements of a large array)
"""ReLU's forward and gradient on float32/float64 NumPy arrays, one pass
each (the loops are in the C below).

Both return None where they do not apply (another dtype or array type, a
layout that is not one aligned contiguous block, operands that differ in shape,
dtype or layout), and the caller keeps NumPy. OpenMP's threads share an
array of ``PARALLEL_MIN_WORK`` elements or more (each element is computed
alone, so the bits do not depend on the thread count), and Ctrl-C is looked
for between chunks (``chunks.pxd``); smaller ones are one call.
"""
cimport numpy as cnp

from cython.parallel cimport prange

from chainerlite._kernels.chunks cimport (
    PARALLEL_MIN_WORK, Chunks, chunks, cl_max_threads, cut, next_chunk,
    parts_of)
from chainerlite._kernels.dtypes cimport float32, float64, descr_of

cnp.import_array()

#: ``maximum(x, 0)`` and ``gy * (y > 0)``, bit for bit.
PRECISION = 'bitwise NumPy'

cdef extern from * nogil:
    """
    /* ReLU and its gradient over contiguous float32/float64 arrays, one pass.
     *
     * NumPy's maximum(x, 0) checks for NaN lane by lane and the gradient
     * gy * (y > 0) makes a boolean temporary and a second pass; these loops do
     * each in one pass that the compiler vectorises, cloned for the CPU
     * (CL_CLONES, dispatch.h).
     *
     * Results are those of the NumPy expressions, bit for bit: relu keeps x
     * where x > 0 or x is NaN and gives +0 elsewhere (as NumPy's vector loops
     * do for -0); the gradient multiplies gy by 1 or 0, so an infinite or NaN
     * gy where y <= 0 gives NaN, as in NumPy.
     */

    #include <stddef.h>

    #include "dispatch.h"

    #define CL_RELU_LOOPS(T, SUFFIX)                                            \
        CL_CLONES static void cl_relu_##SUFFIX(const T *x, T *y,          \
                                                    ptrdiff_t n) {             \
            for (ptrdiff_t i = 0; i < n; i++) {                                 \
                T v = x[i];                                                     \
                y[i] = (v > 0 || v != v) ? v : (T)0;                            \
            }                                                                   \
        }                                                                       \
        CL_CLONES static void cl_relu_grad_##SUFFIX(                      \
            const T *y, const T *gy, T *gx, ptrdiff_t n) {                      \
            for (ptrdiff_t i = 0; i < n; i++)                                   \
                gx[i] = gy[i] * (y[i] > 0 ? (T)1 : (T)0);                       \
        }

    CL_RELU_LOOPS(float, f32)
    CL_RELU_LOOPS(double, f64)
    """
    void cl_relu_f32(const float* x, float* y, Py_ssize_t n)
    void cl_relu_f64(const double* x, double* y, Py_ssize_t n)
    void cl_relu_grad_f32(const float* y, const float* gy, float* gx,
                          Py_ssize_t n)
    void cl_relu_grad_f64(const double* y, const double* gy, double* gx,
                          Py_ssize_t n)

cdef extern from "numpy/arrayobject.h":
    # descr NULL: the prototype's dtype
    object PyArray_NewLikeArray(cnp.ndarray prototype, cnp.NPY_ORDER order,
                                void* descr, int subok)


cdef inline void _loop(int kind, const char* a, const char* g, char* out,
                       Py_ssize_t b, Py_ssize_t e) noexcept nogil:
    # elements [b, e): relu of a where g is NULL, else its gradient from
    # the output a and output gradient g
    cdef Py_ssize_t n = e - b
    if g == NULL and kind == 4:
        cl_relu_f32(<const float*>a + b, <float*>out + b, n)
    elif g == NULL:
        cl_relu_f64(<const double*>a + b, <double*>out + b, n)
    elif kind == 4:
        cl_relu_grad_f32(<const float*>a + b, <const float*>g + b,
                         <float*>out + b, n)
    else:
        cl_relu_grad_f64(<const double*>a + b, <const double*>g + b,
                         <double*>out + b, n)


cdef int _run(int kind, const char* a, const char* g, char* out,
              Py_ssize_t total) except -1:
    # _loop over all `total` elements: one call below PARALLEL_MIN_WORK
    # (an element is about one unit of work), else in chunks shared by the
    # threads
    if total < PARALLEL_MIN_WORK:
        _loop(kind, a, g, out, 0, total)
        return 0
    cdef int threads = cl_max_threads(), parts
    cdef Chunks todo = chunks(total, 1, threads)
    cdef Py_ssize_t t
    while next_chunk(&todo):
        parts = parts_of(todo.end - todo.begin, 1, threads)
        with nogil:
            for t in prange(parts, schedule='static', num_threads=parts,
                            use_threads_if=parts > 1):
                _loop(kind, a, g, out, cut(todo.begin, todo.end, parts, t),
                      cut(todo.begin, todo.end, parts, t + 1))
    return 0


cdef inline int _kind(cnp.ndarray a):
    # 4 or 8 for an aligned float32/float64 array in one C- or
    # Fortran-ordered block (so that its elements are read in memory
    # order), else 0
    dtype = descr_of(a)
    if dtype is not float32() and dtype is not float64():
        return 0
    if not cnp.PyArray_ISALIGNED(a):
        return 0
    if not (cnp.PyArray_IS_C_CONTIGUOUS(a) or cnp.PyArray_IS_F_CONTIGUOUS(a)):
        return 0
    return dtype.itemsize


cdef object relu_array(x):
    """``maximum(x, 0)`` as a new array of x's layout, or None."""
    if type(x) is not cnp.ndarray:
        return None
    cdef cnp.ndarray a = <cnp.ndarray>x
    cdef int kind = _kind(a)
    if kind == 0:
        return None
    cdef cnp.ndarray y = PyArray_NewLikeArray(a, cnp.NPY_KEEPORDER, NULL, 0)
    _run(kind, <const char*>cnp.PyArray_DATA(a), NULL,
         <char*>cnp.PyArray_DATA(y), cnp.PyArray_SIZE(a))
    return y


cdef object relu_grad_array(y, gy):
    """``gy * (y > 0)`` as a new array, or None."""
    if type(y) is not cnp.ndarray or type(gy) is not cnp.ndarray:
        return None
    cdef cnp.ndarray a = <cnp.ndarray>y
    cdef cnp.ndarray g = <cnp.ndarray>gy
    cdef int kind = _kind(a)
    if kind == 0 or descr_of(g) is not descr_of(a) or _kind(g) == 0:
        return None
    if not cnp.PyArray_SAMESHAPE(a, g) or (
            cnp.PyArray_IS_C_CONTIGUOUS(a) != cnp.PyArray_IS_C_CONTIGUOUS(g)):
        return None
    cdef cnp.ndarray gx = PyArray_NewLikeArray(g, cnp.NPY_KEEPORDER, NULL, 0)
    _run(kind, <const char*>cnp.PyArray_DATA(a),
         <const char*>cnp.PyArray_DATA(g), <char*>cnp.PyArray_DATA(gx),
         cnp.PyArray_SIZE(a))
    return gx


def relu(x):
    """:func:`relu_array` from Python (for tests)."""
    return relu_array(x)


def relu_grad(y, gy):
    """:func:`relu_grad_array` from Python (for tests)."""
    return relu_grad_array(y, gy)
