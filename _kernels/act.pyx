# cython: boundscheck=False, wraparound=False
# (kernels: their loops index only within the shapes they read)
"""Compiled element-wise kernels of activation functions on the CPU.

Each is one pass over float32/float64 NumPy arrays where NumPy makes
several temporaries: the backwards of leaky_relu, elu, softplus and gelu,
and gelu's forward (NumPy has no ``erfc``). Those with a transcendental
compute in double and round once to the array's dtype. (The forwards of
elu, sigmoid and softplus are in ``vec_math``, on libmvec's vectorised
``exp``: scalar loops here were slower than NumPy's.) The functions' double-backprop graphs stay in Python;
these serve only their plain backward (``_backward_arrays``).

Each returns a new C-ordered array of its first input's shape and dtype,
or None where it does not apply (arrays that are not all aligned NumPy
arrays of one shape and one dtype, float32 or float64), and the caller
keeps NumPy. The elements are done in chunks, and Ctrl-C is looked for
between chunks (see ``chunks.pxd``).
"""
cimport numpy as cnp
from libc.math cimport M_SQRT1_2, erfc, exp, fabs

from chainerlite._kernels.chunks cimport Chunks, chunks, next_chunk
from chainerlite._kernels.dtypes cimport float32, float64

import numpy

cnp.import_array()

#: Against the formulas in float64 (math.erfc, numpy.exp): a relative
#: error of at most 1e-6 in float32 and 1e-13 in float64.
PRECISION = 'rtol 1e-6 float32, 1e-13 float64'

ctypedef fused real:
    float
    double

#: 1 / sqrt(2 pi), the normal density at 0
cdef double INV_SQRT_2PI = 0.3989422804014327
#: Units of work (see chunks.pxd) of an element: a select, a libm call.
cdef Py_ssize_t SELECT_WORK = 4, LIBM_WORK = 16


cdef tuple _flat(tuple arrays):
    # the arrays flattened (C order) where the kernels take them: aligned
    # NumPy arrays of one shape and one dtype, float32 or float64; else None
    first = arrays[0]
    if type(first) is not cnp.ndarray:
        return None
    dtype = first.dtype
    if dtype != float32() and dtype != float64():
        return None
    for a in arrays:
        if (type(a) is not cnp.ndarray or a.dtype != dtype
                or a.shape != first.shape
                or not cnp.PyArray_ISALIGNED(<cnp.ndarray>a)):
            return None
    return tuple([a.ravel() for a in arrays])


cdef inline bint _single(tuple flat):
    return (<cnp.ndarray>flat[0]).descr.itemsize == 4


cdef inline double _sigmoid(double t) noexcept nogil:
    # exp(-|t|) never overflows; both tails keep their relative precision
    cdef double e = exp(-fabs(t))
    return (1.0 if t >= 0 else e) / (1.0 + e)


cdef extern from * nogil:
    """
    #include <stddef.h>

    #include "dispatch.h"

    /* Branch-free selects, so that the compiler vectorises them (one
     * clone per instruction set, dispatch.h): the leaky ReLU's gradient
     * gy * (slope where x <= 0 and x * slope is not NaN, else 1), and the
     * ELU's, gy where cond > 0, else gy * (y + alpha). */
    #define CL_ACT_SELECT_LOOPS(T, SUFFIX)                                    \\
        CL_CLONES static void cl_leaky_relu_grad_##SUFFIX(                    \\
            const T *x, const T *gy, T *gx, T s, ptrdiff_t b, ptrdiff_t e) {  \\
            for (ptrdiff_t i = b; i < e; i++) {                               \\
                T v = x[i], scaled = v * s;                                   \\
                int sloped = (v <= 0) & (scaled == scaled);                   \\
                gx[i] = gy[i] * (sloped ? s : (T)1);                          \\
            }                                                                 \\
        }                                                                     \\
        CL_CLONES static void cl_elu_grad_##SUFFIX(                           \\
            const T *c, const T *y, const T *gy, T *gx, T a, ptrdiff_t b,     \\
            ptrdiff_t e) {                                                    \\
            for (ptrdiff_t i = b; i < e; i++)                                 \\
                gx[i] = c[i] > 0 ? gy[i] : gy[i] * (y[i] + a);                \\
        }

    CL_ACT_SELECT_LOOPS(float, f32)
    CL_ACT_SELECT_LOOPS(double, f64)
    """
    void cl_leaky_relu_grad_f32(const float* x, const float* gy, float* gx,
                                float s, Py_ssize_t b, Py_ssize_t e)
    void cl_leaky_relu_grad_f64(const double* x, const double* gy,
                                double* gx, double s, Py_ssize_t b,
                                Py_ssize_t e)
    void cl_elu_grad_f32(const float* c, const float* y, const float* gy,
                         float* gx, float a, Py_ssize_t b, Py_ssize_t e)
    void cl_elu_grad_f64(const double* c, const double* y, const double* gy,
                         double* gx, double a, Py_ssize_t b, Py_ssize_t e)


cdef enum:
    # the loops of _select
    LEAKY_RELU_GRAD, ELU_GRAD


cdef object _select(int op, tuple flat, shape, double param):
    # op over the flattened arrays into a new array of `shape`, in chunks
    first = flat[0]
    out = numpy.empty(shape, first.dtype)
    cdef const char* a = <const char*>cnp.PyArray_DATA(<cnp.ndarray>first)
    cdef const char* b = <const char*>cnp.PyArray_DATA(<cnp.ndarray>flat[1])
    cdef const char* c = <const char*>cnp.PyArray_DATA(
        <cnp.ndarray>flat[len(flat) - 1])
    cdef char* o = <char*>cnp.PyArray_DATA(<cnp.ndarray>out)
    cdef bint single = _single(flat)
    cdef Chunks todo = chunks(out.size, SELECT_WORK, 1)
    while next_chunk(&todo):
        with nogil:
            if op == LEAKY_RELU_GRAD and single:
                cl_leaky_relu_grad_f32(<const float*>a, <const float*>b,
                                       <float*>o, <float>param, todo.begin,
                                       todo.end)
            elif op == LEAKY_RELU_GRAD:
                cl_leaky_relu_grad_f64(<const double*>a, <const double*>b,
                                       <double*>o, param, todo.begin,
                                       todo.end)
            elif single:
                cl_elu_grad_f32(<const float*>a, <const float*>b,
                                <const float*>c, <float*>o, <float>param,
                                todo.begin, todo.end)
            else:
                cl_elu_grad_f64(<const double*>a, <const double*>b,
                                <const double*>c, <double*>o, param,
                                todo.begin, todo.end)
    return out


def leaky_relu_grad(x, gy, double slope):
    """``gy * slope`` where ``x <= 0`` (unless ``x * slope`` is NaN: -inf
    with a zero slope), else ``gy`` (NaN included), as Chainer; or None."""
    flat = _flat((x, gy))
    return None if flat is None else _select(LEAKY_RELU_GRAD, flat, x.shape,
                                             slope)


def elu_grad(cond, y, gy, double alpha):
    """``gy`` where ``cond > 0``, else ``gy * (y + alpha)`` (NaN in cond
    included: Chainer's form), alpha rounded to the arrays' dtype; or None
    where the arrays are not aligned NumPy arrays of one shape and one
    dtype, float32 or float64."""
    flat = _flat((cond, y, gy))
    return None if flat is None else _select(ELU_GRAD, flat, y.shape, alpha)


cdef void _softplus_grad(const real[::1] x, const real[::1] gy,
                         real[::1] gx, double beta):
    cdef Py_ssize_t i
    cdef Chunks todo = chunks(x.shape[0], LIBM_WORK, 1)
    while next_chunk(&todo):
        with nogil:
            for i in range(todo.begin, todo.end):
                gx[i] = <real>(gy[i] * _sigmoid(beta * x[i]))


def softplus_grad(x, gy, double beta):
    """``gy * sigmoid(beta * x)``, or None."""
    flat = _flat((x, gy))
    if flat is None:
        return None
    out = numpy.empty(x.shape, x.dtype)
    if _single(flat):
        _softplus_grad[float](flat[0], flat[1], out.reshape(-1), beta)
    else:
        _softplus_grad[double](flat[0], flat[1], out.reshape(-1), beta)
    return out


cdef inline double _normal_cdf(double t) noexcept nogil:
    # erfc keeps the left tail's relative precision (1 + erf would cancel)
    return 0.5 * erfc(-t * M_SQRT1_2)


cdef void _gelu(const real[::1] x, real[::1] y):
    cdef Py_ssize_t i
    cdef Chunks todo = chunks(x.shape[0], LIBM_WORK, 1)
    while next_chunk(&todo):
        with nogil:
            for i in range(todo.begin, todo.end):
                y[i] = <real>(x[i] * _normal_cdf(x[i]))


def gelu(x):
    """``x * Phi(x)``, ``Phi`` the standard normal distribution; or None."""
    flat = _flat((x,))
    if flat is None:
        return None
    out = numpy.empty(x.shape, x.dtype)
    if _single(flat):
        _gelu[float](flat[0], out.reshape(-1))
    else:
        _gelu[double](flat[0], out.reshape(-1))
    return out


cdef void _normal_cdf_loop(const real[::1] x, real[::1] y):
    cdef Py_ssize_t i
    cdef Chunks todo = chunks(x.shape[0], LIBM_WORK, 1)
    while next_chunk(&todo):
        with nogil:
            for i in range(todo.begin, todo.end):
                y[i] = <real>_normal_cdf(x[i])


def normal_cdf(x):
    """``Phi(x)``, or None."""
    flat = _flat((x,))
    if flat is None:
        return None
    out = numpy.empty(x.shape, x.dtype)
    if _single(flat):
        _normal_cdf_loop[float](flat[0], out.reshape(-1))
    else:
        _normal_cdf_loop[double](flat[0], out.reshape(-1))
    return out


cdef void _gelu_grad(const real[::1] x, const real[::1] gy, real[::1] gx):
    cdef Py_ssize_t i
    cdef double t
    cdef Chunks todo = chunks(x.shape[0], LIBM_WORK, 1)
    while next_chunk(&todo):
        with nogil:
            for i in range(todo.begin, todo.end):
                t = x[i]
                gx[i] = <real>(gy[i] * (_normal_cdf(t) + t * INV_SQRT_2PI
                                        * exp(-0.5 * t * t)))


def gelu_grad(x, gy):
    """``gy * (Phi(x) + x * phi(x))``, ``phi`` the normal density; or
    None."""
    flat = _flat((x, gy))
    if flat is None:
        return None
    out = numpy.empty(x.shape, x.dtype)
    if _single(flat):
        _gelu_grad[float](flat[0], flat[1], out.reshape(-1))
    else:
        _gelu_grad[double](flat[0], flat[1], out.reshape(-1))
    return out
