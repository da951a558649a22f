# build: libdl openmp
# (libmvec is found at run time with dlopen)
"""Element-wise tanh, logistic sigmoid, ELU and softplus of float32/float64
arrays, and GELU of float32 ones, vectorised.

The loops of the C below call glibc's vector math library (libmvec, its
``tanh``, ``exp``, ``expm1``, ``log1p`` and ``erfc``), found at import on
x86-64 Linux with AVX2 and FMA and glibc 2.35 or later. Its ``tanh`` runs
about fifteen times faster than glibc's scalar one, within one unit in the
last place, and faster than NumPy's loops built for AVX2; NumPy's
AVX-512 ones are faster still, and where the CPU has AVX-512 ``F.tanh``
keeps them (:func:`numpy_tanh_chosen`). The sigmoid, ELU and softplus,
which NumPy computes in four to six passes with temporaries (``where``
among them, itself slower than an ``exp``), take one pass at about the
cost of NumPy's ``exp``. Elsewhere :func:`vec_math_available` is False and
the callers keep NumPy. OpenMP's threads share a chunk as ``chunks.pxd``'s
``parts_of`` says (from ``PARALLEL_MIN_WORK`` units of work, an element
being about 2, or 8 for GELU's double lanes).
"""
cimport numpy as cnp

from cython.parallel cimport prange

from chainerlite._kernels.chunks cimport (
    Chunks, chunks, cl_max_threads, cut, next_chunk, parts_of)
from chainerlite._kernels.dtypes cimport float32, float64, descr_of

import numpy

cnp.import_array()

#: tanh within 1 unit in the last place in float32, 3 in float64; the
#: sigmoid, ELU and softplus are NumPy's formulas (``sigmoid._stable_sigmoid``,
#: the ELU's ``where``, softplus's) on libmvec's exp, expm1 and log1p,
#: with the same operations rounded in the same order.
PRECISION = '1 ulp float32, 3 ulp float64'


cdef extern from * nogil:
    """
    /* Element-wise tanh over arrays, through glibc's vector math
     * library (libmvec) where the CPU and the C library have it.
     *
     * glibc's scalar tanh costs ~30 ns per element on the machines this was
     * measured on, and NumPy's loops ~10 ns; libmvec's AVX2 versions take ~2 ns
     * with at most one unit in the last place of error (measured against tanh
     * computed in double precision), and keep NaN, +-0 and +-inf as libm does.
     * They are looked up at run time (dlopen/dlsym of libmvec.so.1, on x86-64
     * CPUs with AVX2 and FMA), so the module builds and imports anywhere; where
     * a function is missing, cl_vm_ready() says so and callers keep NumPy.
     */

    #include <stddef.h>
    #include <string.h>

    #include "dispatch.h"

    #if CL_HAVE_AVX2 && defined(__linux__)
    #define CL_HAVE_MVEC 1
    #include <dlfcn.h>

    typedef __m256 (*cl_vf8)(__m256);
    typedef __m256d (*cl_vd4)(__m256d);

    static cl_vf8 cl_vm_tanhf8, cl_vm_expf8, cl_vm_expm1f8, cl_vm_log1pf8;
    static cl_vd4 cl_vm_tanh4, cl_vm_exp4, cl_vm_expm14, cl_vm_log1p4,
        cl_vm_erfc4;

    static int cl_vm_init(void) {
        if (!cl_cpu_avx2_fma())
            return 0;
        void *lib = dlopen("libmvec.so.1", RTLD_NOW | RTLD_LOCAL);
        if (lib == NULL)
            return 0;
        cl_vm_tanhf8 = (cl_vf8)dlsym(lib, "_ZGVdN8v_tanhf");
        cl_vm_tanh4 = (cl_vd4)dlsym(lib, "_ZGVdN4v_tanh");
        cl_vm_expf8 = (cl_vf8)dlsym(lib, "_ZGVdN8v_expf");
        cl_vm_exp4 = (cl_vd4)dlsym(lib, "_ZGVdN4v_exp");
        cl_vm_expm1f8 = (cl_vf8)dlsym(lib, "_ZGVdN8v_expm1f");
        cl_vm_expm14 = (cl_vd4)dlsym(lib, "_ZGVdN4v_expm1");
        cl_vm_log1pf8 = (cl_vf8)dlsym(lib, "_ZGVdN8v_log1pf");
        cl_vm_log1p4 = (cl_vd4)dlsym(lib, "_ZGVdN4v_log1p");
        cl_vm_erfc4 = (cl_vd4)dlsym(lib, "_ZGVdN4v_erfc");
        /* the library stays loaded for the life of the process */
        return cl_vm_tanhf8 != NULL && cl_vm_tanh4 != NULL &&
               cl_vm_expf8 != NULL && cl_vm_exp4 != NULL &&
               cl_vm_expm1f8 != NULL && cl_vm_expm14 != NULL &&
               cl_vm_log1pf8 != NULL && cl_vm_log1p4 != NULL &&
               cl_vm_erfc4 != NULL;
    }

    /* One vector of each function (p: the ELU's alpha). The sigmoid is
     * where(x >= 0, 1, e) / (1 + e) with e = exp(-|x|) (never overflows;
     * NaN stays NaN, -inf gives 0, +inf 1); the ELU where(x >= 0, x,
     * alpha * expm1(min(x, 0))) (min keeps a NaN x: it returns its second
     * operand where either is NaN); softplus (max(t, 0) + log1p(exp(-|t|)))
     * * q with t = x * p (p beta, q 1 / beta: no overflow). */
    CL_AVX2_INLINE __m256 cl_vm_tanh_v8(__m256 x, float p, float q) {
        (void)p; (void)q;
        return cl_vm_tanhf8(x);
    }
    CL_AVX2_INLINE __m256d cl_vm_tanh_v4(__m256d x, double p, double q) {
        (void)p; (void)q;
        return cl_vm_tanh4(x);
    }
    CL_AVX2_INLINE __m256 cl_vm_sigmoid_v8(__m256 x, float p, float q) {
        (void)p; (void)q;
        const __m256 one = _mm256_set1_ps(1.0f), sign = _mm256_set1_ps(-0.0f);
        __m256 e = cl_vm_expf8(_mm256_or_ps(x, sign));
        __m256 pos = _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_GE_OQ);
        return _mm256_div_ps(_mm256_blendv_ps(e, one, pos),
                             _mm256_add_ps(e, one));
    }
    CL_AVX2_INLINE __m256d cl_vm_sigmoid_v4(__m256d x, double p, double q) {
        (void)p; (void)q;
        const __m256d one = _mm256_set1_pd(1.0), sign = _mm256_set1_pd(-0.0);
        __m256d e = cl_vm_exp4(_mm256_or_pd(x, sign));
        __m256d pos = _mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_GE_OQ);
        return _mm256_div_pd(_mm256_blendv_pd(e, one, pos),
                             _mm256_add_pd(e, one));
    }
    CL_AVX2_INLINE __m256 cl_vm_elu_v8(__m256 x, float alpha, float q) {
        (void)q;
        const __m256 zero = _mm256_setzero_ps();
        __m256 m = cl_vm_expm1f8(_mm256_min_ps(zero, x));
        m = _mm256_mul_ps(_mm256_set1_ps(alpha), m);
        return _mm256_blendv_ps(m, x, _mm256_cmp_ps(x, zero, _CMP_GE_OQ));
    }
    CL_AVX2_INLINE __m256d cl_vm_elu_v4(__m256d x, double alpha, double q) {
        (void)q;
        const __m256d zero = _mm256_setzero_pd();
        __m256d m = cl_vm_expm14(_mm256_min_pd(zero, x));
        m = _mm256_mul_pd(_mm256_set1_pd(alpha), m);
        return _mm256_blendv_pd(m, x, _mm256_cmp_pd(x, zero, _CMP_GE_OQ));
    }

    /* y[i] = f(x[i]) for i < n; the last partial vector goes through a
     * padded copy, so no lane reads or writes past the arrays. x and y may
     * be equal. */
    #define CL_VM_LOOP(NAME, T, V, W, LOADU, STOREU)                         \\
        CL_AVX2 static void cl_vm_##NAME(const T *x, T *y, ptrdiff_t n,     \\
                                        T p, T q) {                        \\
            ptrdiff_t i = 0;                                               \\
            for (; i + W <= n; i += W)                                     \\
                STOREU(y + i, cl_vm_##V(LOADU(x + i), p, q));              \\
            if (i < n) {                                                   \\
                T buf[W] = {0};                                            \\
                memcpy(buf, x + i, (size_t)(n - i) * sizeof(T));           \\
                STOREU(buf, cl_vm_##V(LOADU(buf), p, q));                  \\
                memcpy(y + i, buf, (size_t)(n - i) * sizeof(T));           \\
            }                                                              \\
        }
    #define CL_VM_LOOPS(NAME)                                                \\
        CL_VM_LOOP(NAME##_f32, float, NAME##_v8, 8, _mm256_loadu_ps,         \\
                   _mm256_storeu_ps)                                         \\
        CL_VM_LOOP(NAME##_f64, double, NAME##_v4, 4, _mm256_loadu_pd,        \\
                   _mm256_storeu_pd)
    CL_AVX2_INLINE __m256 cl_vm_softplus_v8(__m256 x, float beta,
                                            float inv) {
        const __m256 sign = _mm256_set1_ps(-0.0f);
        __m256 t = _mm256_mul_ps(x, _mm256_set1_ps(beta));
        __m256 l = cl_vm_log1pf8(cl_vm_expf8(_mm256_or_ps(t, sign)));
        /* max(t, 0): a NaN t is kept (max returns its second operand) */
        __m256 m = _mm256_max_ps(_mm256_setzero_ps(), t);
        return _mm256_mul_ps(_mm256_add_ps(m, l), _mm256_set1_ps(inv));
    }
    CL_AVX2_INLINE __m256d cl_vm_softplus_v4(__m256d x, double beta,
                                             double inv) {
        const __m256d sign = _mm256_set1_pd(-0.0);
        __m256d t = _mm256_mul_pd(x, _mm256_set1_pd(beta));
        __m256d l = cl_vm_log1p4(cl_vm_exp4(_mm256_or_pd(t, sign)));
        __m256d m = _mm256_max_pd(_mm256_setzero_pd(), t);
        return _mm256_mul_pd(_mm256_add_pd(m, l), _mm256_set1_pd(inv));
    }
    /* GELU of float32 in double lanes (converted, then rounded once, as
     * act.gelu and act.gelu_grad compute it): x Phi(x), and its gradient
     * g (Phi(x) + x phi(x)), Phi(x) = erfc(-x / sqrt 2) / 2, the same
     * operations in the same order as act's loops, which they match to the
     * bit. (float64 stays with act: libmvec's erfc is a few units in the
     * last place off in the tails, where the gradient's two terms cancel.) */
    CL_AVX2_INLINE __m256d cl_vm_cdf4(__m256d x) {
        __m256d t = _mm256_mul_pd(x, _mm256_set1_pd(-0.70710678118654752440));
        return _mm256_mul_pd(_mm256_set1_pd(0.5), cl_vm_erfc4(t));
    }
    CL_AVX2_INLINE __m256d cl_vm_gelu_d(__m256d x, __m256d g) {
        (void)g;
        return _mm256_mul_pd(x, cl_vm_cdf4(x));
    }
    CL_AVX2_INLINE __m256d cl_vm_gelu_grad_d(__m256d x, __m256d g) {
        __m256d pdf = cl_vm_exp4(_mm256_mul_pd(
            _mm256_mul_pd(_mm256_set1_pd(-0.5), x), x));
        __m256d slope = _mm256_add_pd(
            cl_vm_cdf4(x),
            _mm256_mul_pd(_mm256_mul_pd(x, _mm256_set1_pd(0.3989422804014327)),
                          pdf));
        return _mm256_mul_pd(g, slope);
    }

    /* y[i] = f(x[i], g[i]) for i < n (float32), four lanes at a time */
    #define CL_VM_DLOOP(NAME)                                                \\
        CL_AVX2 static void cl_vm_##NAME##_f32(const float *x, const float *g,\\
                                              float *y, ptrdiff_t n) {     \\
            ptrdiff_t i = 0;                                               \\
            for (; i + 4 <= n; i += 4)                                     \\
                _mm_storeu_ps(y + i, _mm256_cvtpd_ps(cl_vm_##NAME##_d(      \\
                    _mm256_cvtps_pd(_mm_loadu_ps(x + i)),                  \\
                    _mm256_cvtps_pd(_mm_loadu_ps(g + i)))));               \\
            if (i < n) {                                                   \\
                float bx[4] = {0}, bg[4] = {0};                            \\
                memcpy(bx, x + i, (size_t)(n - i) * sizeof(float));        \\
                memcpy(bg, g + i, (size_t)(n - i) * sizeof(float));        \\
                _mm_storeu_ps(bx, _mm256_cvtpd_ps(cl_vm_##NAME##_d(         \\
                    _mm256_cvtps_pd(_mm_loadu_ps(bx)),                     \\
                    _mm256_cvtps_pd(_mm_loadu_ps(bg)))));                  \\
                memcpy(y + i, bx, (size_t)(n - i) * sizeof(float));        \\
            }                                                              \\
        }
    CL_VM_DLOOP(gelu)
    CL_VM_DLOOP(gelu_grad)
    CL_VM_LOOPS(tanh)
    CL_VM_LOOPS(sigmoid)
    CL_VM_LOOPS(elu)
    CL_VM_LOOPS(softplus)
    #else
    #define CL_HAVE_MVEC 0
    static int cl_vm_init(void) { return 0; }
    #define CL_VM_NONE(NAME, T)                                              \\
        static void cl_vm_##NAME(const T *x, T *y, ptrdiff_t n, T p, T q) {\\
            (void)x; (void)y; (void)n; (void)p; (void)q;                   \\
        }
    CL_VM_NONE(tanh_f32, float)
    CL_VM_NONE(tanh_f64, double)
    CL_VM_NONE(sigmoid_f32, float)
    CL_VM_NONE(sigmoid_f64, double)
    CL_VM_NONE(elu_f32, float)
    CL_VM_NONE(elu_f64, double)
    CL_VM_NONE(softplus_f32, float)
    CL_VM_NONE(softplus_f64, double)
    #define CL_VM_DNONE(NAME)                                                \\
        static void cl_vm_##NAME(const float *x, const float *g, float *y, \\
                                 ptrdiff_t n)                              \\
            { (void)x; (void)g; (void)y; (void)n; }
    CL_VM_DNONE(gelu_f32)
    CL_VM_DNONE(gelu_grad_f32)
    #endif
    """
    int cl_vm_init()
    void cl_vm_tanh_f32(const float* x, float* y, Py_ssize_t n, float p,
                        float q)
    void cl_vm_tanh_f64(const double* x, double* y, Py_ssize_t n, double p,
                        double q)
    void cl_vm_sigmoid_f32(const float* x, float* y, Py_ssize_t n, float p,
                           float q)
    void cl_vm_sigmoid_f64(const double* x, double* y, Py_ssize_t n,
                           double p, double q)
    void cl_vm_elu_f32(const float* x, float* y, Py_ssize_t n, float p,
                       float q)
    void cl_vm_elu_f64(const double* x, double* y, Py_ssize_t n, double p,
                       double q)
    void cl_vm_softplus_f32(const float* x, float* y, Py_ssize_t n, float p,
                            float q)
    void cl_vm_softplus_f64(const double* x, double* y, Py_ssize_t n,
                            double p, double q)
    void cl_vm_gelu_f32(const float* x, const float* g, float* y,
                        Py_ssize_t n)
    void cl_vm_gelu_grad_f32(const float* x, const float* g, float* y,
                             Py_ssize_t n)

ctypedef void (*map_f32)(const float*, float*, Py_ssize_t, float,
                         float) noexcept nogil
ctypedef void (*map_f64)(const double*, double*, Py_ssize_t, double,
                         double) noexcept nogil

cdef bint _READY = cl_vm_init()


cdef bint _numpy_tanh_faster() except -1:
    # NumPy's own tanh loops for AVX-512 (SKX and later: NumPy 1.25+ has
    # them) take 0.35-0.45x the time of libmvec's AVX2 ones (2M float32:
    # 0.75-0.85 against 1.9-2.4 ms), and give Chainer's results, which are
    # NumPy's (within 1.34 units in the last place in float32 where
    # libmvec's are within 1); with AVX2 alone, NumPy 1.26's take 1.5-1.8x
    # libmvec's time. Where NumPy does not say, libmvec.
    try:
        from numpy._core._multiarray_umath import __cpu_features__
    except ImportError:  # NumPy 1
        from numpy.core._multiarray_umath import __cpu_features__
    return bool(__cpu_features__.get('AVX512_SKX'))


cdef bint _NUMPY_TANH = _numpy_tanh_faster()


def numpy_tanh_chosen():
    """Whether ``F.tanh`` runs NumPy's tanh here (AVX-512), not
    libmvec's."""
    return _NUMPY_TANH


def vec_math_available():
    """Whether libmvec's AVX2 tanh runs on this machine."""
    return _READY


cdef bint tanh_f32(const float* x, float* y, Py_ssize_t n) noexcept nogil:
    """``y[i] = tanh(x[i])`` for ``i < n`` (x and y may be equal); False,
    with nothing written, where the vector library is absent."""
    if not _READY:
        return False
    cl_vm_tanh_f32(x, y, n, 0, 0)
    return True


cdef bint tanh_f64(const double* x, double* y, Py_ssize_t n) noexcept nogil:
    """:func:`tanh_f32` for float64."""
    if not _READY:
        return False
    cl_vm_tanh_f64(x, y, n, 0, 0)
    return True


cdef enum:
    # the functions of _map
    TANH, SIGMOID, ELU, SOFTPLUS


cdef object _map(int fn, x, double p, double q):
    # fn of a float32/float64 NumPy array as a new C-contiguous array, or
    # None where the vector library is absent or the dtype is another; the
    # elements in chunks, Ctrl-C looked for between them (chunks.pxd)
    if not _READY or type(x) is not cnp.ndarray:
        return None
    cdef cnp.ndarray a = <cnp.ndarray>x
    dtype = descr_of(a)
    if dtype is not float32() and dtype is not float64():
        return None
    if not cnp.PyArray_IS_C_CONTIGUOUS(a):
        a = numpy.ascontiguousarray(a)
    # (not numpy.empty_like, a Python function: no Python code runs here)
    cdef cnp.ndarray y = cnp.PyArray_EMPTY(
        cnp.PyArray_NDIM(a), cnp.PyArray_DIMS(a), cnp.PyArray_TYPE(a), 0)
    cdef bint single = dtype.itemsize == 4
    cdef const char* px = <const char*>cnp.PyArray_DATA(a)
    cdef char* py = <char*>cnp.PyArray_DATA(y)
    cdef Py_ssize_t size = dtype.itemsize, t, b, e
    cdef int threads = cl_max_threads(), parts
    cdef map_f32 f32 = cl_vm_tanh_f32
    cdef map_f64 f64 = cl_vm_tanh_f64
    if fn == SIGMOID:
        f32, f64 = cl_vm_sigmoid_f32, cl_vm_sigmoid_f64
    elif fn == ELU:
        f32, f64 = cl_vm_elu_f32, cl_vm_elu_f64
    elif fn == SOFTPLUS:
        f32, f64 = cl_vm_softplus_f32, cl_vm_softplus_f64
    # an element: about 2 units of work (see chunks.pxd)
    cdef Chunks todo = chunks(cnp.PyArray_SIZE(a), 2, threads)
    while next_chunk(&todo):
        parts = parts_of(todo.end - todo.begin, 2, threads)
        with nogil:
            for t in prange(parts, schedule='static', num_threads=parts,
                            use_threads_if=parts > 1):
                b = cut(todo.begin, todo.end, parts, t)
                e = cut(todo.begin, todo.end, parts, t + 1)
                if single:
                    f32(<const float*>(px + b * size),
                        <float*>(py + b * size), e - b, <float>p, <float>q)
                else:
                    f64(<const double*>(px + b * size),
                        <double*>(py + b * size), e - b, p, q)
    return y


cdef object tanh_array(x):
    """tanh of a float32/float64 NumPy array as a new C-contiguous array,
    or None where the vector library is absent, NumPy's own tanh is the
    faster (AVX-512) or the dtype is another."""
    return None if _NUMPY_TANH else _map(TANH, x, 0, 0)


def sigmoid(x):
    """The logistic sigmoid of a float32/float64 NumPy array, as
    ``sigmoid._stable_sigmoid`` computes it (a new C-contiguous array), or
    None where the vector library is absent or the dtype is another."""
    return _map(SIGMOID, x, 0, 0)


def elu(x, double alpha):
    """``where(x >= 0, x, alpha * expm1(min(x, 0)))`` with alpha rounded to
    x's dtype (a new C-contiguous array), or None as :func:`sigmoid`."""
    return _map(ELU, x, alpha, 0)


def softplus(x, double beta, double beta_inv):
    """``(max(t, 0) + log1p(exp(-|t|))) * beta_inv`` with ``t = x * beta``,
    beta and beta_inv rounded to x's dtype, as ``F.softplus`` computes it
    (a new C-contiguous array), or None as :func:`sigmoid`."""
    return _map(SOFTPLUS, x, beta, beta_inv)


cdef object _map2(bint grad, x, g):
    # GELU (grad False: g unused) or its gradient of x and g, float32 arrays
    # of one shape, into a new C-contiguous array; None where they are not,
    # or the library is absent
    if (not _READY or type(x) is not cnp.ndarray
            or type(g) is not cnp.ndarray):
        return None
    cdef cnp.ndarray a = <cnp.ndarray>x, h = <cnp.ndarray>g
    if (descr_of(a) is not float32() or descr_of(h) is not float32()
            or not cnp.PyArray_SAMESHAPE(a, h)):
        return None
    if not cnp.PyArray_IS_C_CONTIGUOUS(a):
        a = numpy.ascontiguousarray(a)
    if not cnp.PyArray_IS_C_CONTIGUOUS(h):
        h = numpy.ascontiguousarray(h)
    cdef cnp.ndarray y = cnp.PyArray_EMPTY(
        cnp.PyArray_NDIM(a), cnp.PyArray_DIMS(a), cnp.NPY_FLOAT32, 0)
    cdef const float* px = <const float*>cnp.PyArray_DATA(a)
    cdef const float* pg = <const float*>cnp.PyArray_DATA(h)
    cdef float* py = <float*>cnp.PyArray_DATA(y)
    cdef Py_ssize_t t, b, e
    cdef int threads = cl_max_threads(), parts
    # an element: about 8 units of work (double lanes, erfc and exp)
    cdef Chunks todo = chunks(cnp.PyArray_SIZE(a), 8, threads)
    while next_chunk(&todo):
        parts = parts_of(todo.end - todo.begin, 8, threads)
        with nogil:
            for t in prange(parts, schedule='static', num_threads=parts,
                            use_threads_if=parts > 1):
                b = cut(todo.begin, todo.end, parts, t)
                e = cut(todo.begin, todo.end, parts, t + 1)
                if grad:
                    cl_vm_gelu_grad_f32(px + b, pg + b, py + b, e - b)
                else:
                    cl_vm_gelu_f32(px + b, pg + b, py + b, e - b)
    return y


def gelu(x):
    """``x * Phi(x)`` (``Phi`` the standard normal distribution) of a
    float32 NumPy array, as ``act.gelu`` gives it to the bit (a new
    C-contiguous array); or None where x is another array or the library
    is absent."""
    return _map2(False, x, x)


def gelu_grad(x, gy):
    """``gy * (Phi(x) + x * phi(x))`` as ``act.gelu_grad`` gives it to the
    bit, or None where x and gy are not float32 NumPy arrays of one shape
    or the library is absent."""
    return _map2(True, x, gy)
