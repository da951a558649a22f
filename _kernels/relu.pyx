"""ReLU's forward and gradient on float32/float64 NumPy arrays, one pass
each (the loops are in the C below).

Both return None where they do not apply (another dtype or array type, a
layout that is not one aligned contiguous block, operands that differ in shape,
dtype or layout), and the caller keeps NumPy.
"""
cimport numpy as cnp

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
    cdef Py_ssize_t n = cnp.PyArray_SIZE(a)
    if kind == 4:
        cl_relu_f32(<const float*>cnp.PyArray_DATA(a),
                    <float*>cnp.PyArray_DATA(y), n)
    else:
        cl_relu_f64(<const double*>cnp.PyArray_DATA(a),
                    <double*>cnp.PyArray_DATA(y), n)
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
    cdef Py_ssize_t n = cnp.PyArray_SIZE(a)
    if kind == 4:
        cl_relu_grad_f32(<const float*>cnp.PyArray_DATA(a),
                         <const float*>cnp.PyArray_DATA(g),
                         <float*>cnp.PyArray_DATA(gx), n)
    else:
        cl_relu_grad_f64(<const double*>cnp.PyArray_DATA(a),
                         <const double*>cnp.PyArray_DATA(g),
                         <double*>cnp.PyArray_DATA(gx), n)
    return gx


def relu(x):
    """:func:`relu_array` from Python (for tests)."""
    return relu_array(x)


def relu_grad(y, gy):
    """:func:`relu_grad_array` from Python (for tests)."""
    return relu_grad_array(y, gy)
