"""ReLU's forward and gradient on float32/float64 NumPy arrays, one pass
each (the loops are in ``relu_kernels.h``).

Both return None where they do not apply (another dtype or array type, a
layout that is not one aligned contiguous block, operands that differ in shape,
dtype or layout), and the caller keeps NumPy.
"""
cimport numpy as cnp

import numpy

cnp.import_array()


cdef extern from "relu_kernels.h" nogil:
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

cdef object _float32 = numpy.dtype(numpy.float32)
cdef object _float64 = numpy.dtype(numpy.float64)


cdef inline int _kind(cnp.ndarray a):
    # 4 or 8 for an aligned float32/float64 array in one C- or
    # Fortran-ordered block (so that its elements are read in memory
    # order), else 0
    dtype = a.descr
    if dtype is not _float32 and dtype is not _float64:
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
    if kind == 0 or g.descr is not a.descr or _kind(g) == 0:
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
