# build: strict-fp openmp
# (its loop must round every operation as NumPy does: no fused multiply-add;
# and sqrt need not set errno, so that the loop vectorises; OpenMP threads
# share the elements)
"""Optimizer updates on the CPU in one compiled pass (the loops are in the
C below): Adam, SGD and MomentumSGD.

Each entry point declines (returns None, and the caller keeps NumPy) where
its loop would not give NumPy's bits or could not run safely: another
dtype or array type, arrays that are not one aligned C-contiguous block of
the same dtype and shape, a read-only array to write (the caller's NumPy
code then raises), arrays that overlap in memory, or a hyperparameter
that is not a Python number (a NumPy scalar may change the dtype NumPy
computes in) or does not fit the dtype. The elements are done in chunks,
and Ctrl-C is looked for between chunks (see ``chunks.pxd``); OpenMP's
threads share a chunk of ``PARALLEL_MIN_WORK`` units of work or more (each
element is computed alone, so the bits do not depend on the thread count).
"""
cimport numpy as cnp
from libc.math cimport fabs

from cython.parallel cimport prange

from chainerlite._kernels.chunks cimport (
    Chunks, chunks, cl_max_threads, cut, next_chunk, parts_of)
from chainerlite._kernels.dtypes cimport float32, float64, descr_of

cnp.import_array()

#: The NumPy expressions of Adam's, SGD's and MomentumSGD's update rules,
#: bit for bit (NaN payloads aside).
PRECISION = 'bitwise NumPy'


cdef extern from * nogil:
    """
    /* Adam's CPU update of a float32/float64 parameter in one pass.
     *
     * NumPy runs the rule as a dozen whole-array operations, each with its own
     * temporary (about 6 ms a step for an MLP of 1.8M parameters, against 11
     * for its forward and backward); this loop reads each element of the
     * parameter, gradient and moments once. Each operation is the NumPy
     * expression's, in the same order and the same dtype, every result rounded
     * as NumPy rounds it, so the results are NumPy's bit for bit (NaN payloads
     * aside): no multiply-add may be fused and sqrt is the correctly rounded
     * one. On x86-64 with GCC the loop is compiled for
     * AVX-512, AVX2 and the baseline; the loader picks the one the CPU runs.
     */

    #include <math.h>
    #include <stddef.h>

    #pragma STDC FP_CONTRACT OFF

    /* setup.py compiles this module with -ffp-contract=off (GCC ignores the
     * pragma above) and -fno-math-errno (or sqrt is a library call per
     * element) */
    #include "dispatch.h"

    /* m += b1c * (grad - m); v += b2c * (grad * grad - v);
     * param = keep * param + neg_eta * (lr / (sqrt(v) + eps) * m), Chainer
     * 7.8.1's order: keep = 1 - eta * wd and neg_eta = -eta, each rounded
     * to T (keep * param is param itself when keep is 1, as without decay) */
    #define CL_ADAM_LOOP(T, SUFFIX, SQRT)                                        \
        CL_CLONES static void cl_adam_##SUFFIX(                            \
            T *param, const T *grad, T *m, T *v, ptrdiff_t n, T b1c, T b2c,    \
            T lr, T eps, T keep, T neg_eta) {                                    \
            for (ptrdiff_t i = 0; i < n; i++) {                                  \
                T g = grad[i], p = param[i];                                     \
                T mi = m[i] + b1c * (g - m[i]);                                  \
                T vi = v[i] + b2c * (g * g - v[i]);                              \
                T step = lr / (SQRT(vi) + eps);                                  \
                m[i] = mi;                                                       \
                v[i] = vi;                                                       \
                param[i] = keep * p + neg_eta * (step * mi);                     \
            }                                                                    \
        }

    CL_ADAM_LOOP(float, f32, sqrtf)
    CL_ADAM_LOOP(double, f64, sqrt)

    /* SGD: param -= lr * grad */
    #define CL_SGD_LOOP(T, SUFFIX)                                              \
        CL_CLONES static void cl_sgd_##SUFFIX(                                  \
            T *param, const T *grad, ptrdiff_t n, T lr) {                       \
            for (ptrdiff_t i = 0; i < n; i++)                                   \
                param[i] = param[i] - lr * grad[i];                             \
        }

    /* MomentumSGD: v *= momentum; v -= lr * grad; param += v */
    #define CL_MOMENTUM_LOOP(T, SUFFIX)                                         \
        CL_CLONES static void cl_momentum_##SUFFIX(                             \
            T *param, const T *grad, T *v, ptrdiff_t n, T lr, T momentum) {    \
            for (ptrdiff_t i = 0; i < n; i++) {                                 \
                T vi = v[i] * momentum;                                         \
                vi = vi - lr * grad[i];                                         \
                v[i] = vi;                                                      \
                param[i] = param[i] + vi;                                       \
            }                                                                   \
        }

    CL_SGD_LOOP(float, f32)
    CL_SGD_LOOP(double, f64)
    CL_MOMENTUM_LOOP(float, f32)
    CL_MOMENTUM_LOOP(double, f64)
    """
    void cl_adam_f32(float* param, const float* grad, float* m, float* v,
                     Py_ssize_t n, float b1c, float b2c, float lr, float eps,
                     float keep, float neg_eta)
    void cl_adam_f64(double* param, const double* grad, double* m, double* v,
                     Py_ssize_t n, double b1c, double b2c, double lr,
                     double eps, double keep, double neg_eta)
    void cl_sgd_f32(float* param, const float* grad, Py_ssize_t n, float lr)
    void cl_sgd_f64(double* param, const double* grad, Py_ssize_t n, double lr)
    void cl_momentum_f32(float* param, const float* grad, float* v,
                         Py_ssize_t n, float lr, float momentum)
    void cl_momentum_f64(double* param, const double* grad, double* v,
                         Py_ssize_t n, double lr, double momentum)

# beyond this a Python float does not fit float32, and NumPy 1.x would
# compute in float64 instead
cdef double _FLOAT32_MAX = 3.4028234663852886e38


cdef bint _plain(object a, cnp.ndarray like, bint written):
    # an aligned C-contiguous ndarray of like's dtype and shape, writeable
    # if written
    return (type(a) is cnp.ndarray
            and descr_of(<cnp.ndarray>a) is descr_of(like)
            and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray>a)
            and cnp.PyArray_ISALIGNED(<cnp.ndarray>a)
            and (not written or cnp.PyArray_ISWRITEABLE(<cnp.ndarray>a))
            and cnp.PyArray_SAMESHAPE(<cnp.ndarray>a, like))


cdef bint _number(object x, bint single):
    if type(x) is not float and type(x) is not int:
        return False
    return not single or abs(x) <= _FLOAT32_MAX


cdef bint _disjoint(tuple arrays):
    # each array is one contiguous block of the same size (same shape and
    # dtype): compare the blocks' bounds
    cdef Py_ssize_t i, j
    cdef char* start_i
    cdef char* start_j
    cdef Py_ssize_t size
    for i in range(len(arrays)):
        start_i = <char*>cnp.PyArray_DATA(<cnp.ndarray>arrays[i])
        size = cnp.PyArray_NBYTES(<cnp.ndarray>arrays[i])
        for j in range(i):
            start_j = <char*>cnp.PyArray_DATA(<cnp.ndarray>arrays[j])
            if start_i < start_j + size and start_j < start_i + size:
                return False
    return True


cdef bint _takes(object param, tuple others, tuple written, tuple scalars):
    # the checks of every entry point: param a float32/float64 ndarray, the
    # other arrays plain ones like it (those in written writeable), all
    # disjoint, the scalars Python numbers that fit the dtype
    if type(param) is not cnp.ndarray:
        return False
    cdef cnp.ndarray p = <cnp.ndarray>param
    if descr_of(p) is not float32() and descr_of(p) is not float64():
        return False
    if not _plain(p, p, True):
        return False
    for a, w in zip(others, written):
        if not _plain(a, p, w):
            return False
    if not _disjoint((param,) + others):
        return False
    cdef bint single = descr_of(p) is float32()
    for x in scalars:
        if not _number(x, single):
            return False
    return True


def adam(param, grad, m, v, one_minus_beta1, one_minus_beta2, lr, eps, eta,
         weight_decay_rate):
    """Adam's update (without AMSGrad or AdaBound) of ``param``, ``m`` and
    ``v`` in place, from ``grad``: returns ``param``, or None (nothing
    written) where it declines."""
    scalars = (one_minus_beta1, one_minus_beta2, lr, eps, eta,
               weight_decay_rate)
    if not _takes(param, (grad, m, v), (False, True, True), scalars):
        return None
    cdef cnp.ndarray p = <cnp.ndarray>param
    cdef bint single = descr_of(p) is float32()
    cdef double b1c = one_minus_beta1, b2c = one_minus_beta2
    cdef double c_lr = lr, c_eps = eps
    # the two factors as Chainer forms them in Python floats
    cdef double keep = 1.0 - <double>eta * <double>weight_decay_rate
    cdef double neg_eta = -<double>eta
    if single and fabs(keep) > _FLOAT32_MAX:
        return None  # NumPy 1.x would scale by it in float64
    cdef void* pd = cnp.PyArray_DATA(p)
    cdef void* gd = cnp.PyArray_DATA(<cnp.ndarray>grad)
    cdef void* md = cnp.PyArray_DATA(<cnp.ndarray>m)
    cdef void* vd = cnp.PyArray_DATA(<cnp.ndarray>v)
    # an element: about 2 units of work (see chunks.pxd), memory bound
    cdef int threads = cl_max_threads(), parts
    cdef Chunks todo = chunks(cnp.PyArray_SIZE(p), 2, threads)
    cdef Py_ssize_t t, i, n
    while next_chunk(&todo):
        parts = parts_of(todo.end - todo.begin, 2, threads)
        with nogil:
            for t in prange(parts, schedule='static', num_threads=parts,
                            use_threads_if=parts > 1):
                i = cut(todo.begin, todo.end, parts, t)
                n = cut(todo.begin, todo.end, parts, t + 1) - i
                if single:
                    cl_adam_f32(<float*>pd + i, <const float*>gd + i,
                                <float*>md + i, <float*>vd + i, n,
                                <float>b1c, <float>b2c, <float>c_lr,
                                <float>c_eps, <float>keep, <float>neg_eta)
                else:
                    cl_adam_f64(<double*>pd + i, <const double*>gd + i,
                                <double*>md + i, <double*>vd + i, n, b1c,
                                b2c, c_lr, c_eps, keep, neg_eta)
    return param


def sgd(param, grad, lr):
    """SGD's update ``param -= lr * grad`` in place: returns ``param``, or
    None (nothing written) where it declines."""
    if not _takes(param, (grad,), (False,), (lr,)):
        return None
    cdef cnp.ndarray p = <cnp.ndarray>param
    cdef bint single = descr_of(p) is float32()
    cdef double c_lr = lr
    cdef void* pd = cnp.PyArray_DATA(p)
    cdef void* gd = cnp.PyArray_DATA(<cnp.ndarray>grad)
    # an element: about 1 unit of work (see chunks.pxd), memory bound
    cdef int threads = cl_max_threads(), parts
    cdef Chunks todo = chunks(cnp.PyArray_SIZE(p), 1, threads)
    cdef Py_ssize_t t, i, n
    while next_chunk(&todo):
        parts = parts_of(todo.end - todo.begin, 1, threads)
        with nogil:
            for t in prange(parts, schedule='static', num_threads=parts,
                            use_threads_if=parts > 1):
                i = cut(todo.begin, todo.end, parts, t)
                n = cut(todo.begin, todo.end, parts, t + 1) - i
                if single:
                    cl_sgd_f32(<float*>pd + i, <const float*>gd + i, n,
                               <float>c_lr)
                else:
                    cl_sgd_f64(<double*>pd + i, <const double*>gd + i, n,
                               c_lr)
    return param


def momentum_sgd(param, grad, v, lr, momentum):
    """MomentumSGD's update ``v *= momentum; v -= lr * grad; param += v``
    in place: returns ``param``, or None (nothing written) where it
    declines."""
    if not _takes(param, (grad, v), (False, True), (lr, momentum)):
        return None
    cdef cnp.ndarray p = <cnp.ndarray>param
    cdef bint single = descr_of(p) is float32()
    cdef double c_lr = lr, c_momentum = momentum
    cdef void* pd = cnp.PyArray_DATA(p)
    cdef void* gd = cnp.PyArray_DATA(<cnp.ndarray>grad)
    cdef void* vd = cnp.PyArray_DATA(<cnp.ndarray>v)
    # an element: about 1 unit of work (see chunks.pxd), memory bound
    cdef int threads = cl_max_threads(), parts
    cdef Chunks todo = chunks(cnp.PyArray_SIZE(p), 1, threads)
    cdef Py_ssize_t t, i, n
    while next_chunk(&todo):
        parts = parts_of(todo.end - todo.begin, 1, threads)
        with nogil:
            for t in prange(parts, schedule='static', num_threads=parts,
                            use_threads_if=parts > 1):
                i = cut(todo.begin, todo.end, parts, t)
                n = cut(todo.begin, todo.end, parts, t + 1) - i
                if single:
                    cl_momentum_f32(<float*>pd + i, <const float*>gd + i,
                                    <float*>vd + i, n, <float>c_lr,
                                    <float>c_momentum)
                else:
                    cl_momentum_f64(<double*>pd + i, <const double*>gd + i,
                                    <double*>vd + i, n, c_lr, c_momentum)
    return param
