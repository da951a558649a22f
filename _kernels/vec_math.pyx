# build: libdl
# (libmvec is found at run time with dlopen)
"""Element-wise tanh of float32/float64 arrays, vectorised.

The loops of the C below call glibc's vector math library (libmvec),
found at import on x86-64 Linux with AVX2 and FMA: there ``tanh`` runs
about five times faster than NumPy's loop and fifteen times faster than
glibc's scalar ``tanh``, within one unit in the last place. Elsewhere
:func:`vec_math_available` is False and the callers keep NumPy.
"""
cimport numpy as cnp

from chainerlite._kernels.chunks cimport Chunks, chunks, next_chunk
from chainerlite._kernels.dtypes cimport float32, float64, descr_of

import numpy

cnp.import_array()

#: tanh within 1 unit in the last place in float32, 3 in float64.
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

    static cl_vf8 cl_vm_tanhf8;
    static cl_vd4 cl_vm_tanh4;

    static int cl_vm_init(void) {
        if (!cl_cpu_avx2_fma())
            return 0;
        void *lib = dlopen("libmvec.so.1", RTLD_NOW | RTLD_LOCAL);
        if (lib == NULL)
            return 0;
        cl_vm_tanhf8 = (cl_vf8)dlsym(lib, "_ZGVdN8v_tanhf");
        cl_vm_tanh4 = (cl_vd4)dlsym(lib, "_ZGVdN4v_tanh");
        /* the library stays loaded for the life of the process */
        return cl_vm_tanhf8 != NULL && cl_vm_tanh4 != NULL;
    }

    /* y[i] = tanh(x[i]) for i < n; the last partial vector goes through a padded
     * copy, so no lane reads or writes past the arrays. x and y may be equal. */
    CL_AVX2 static void
    cl_vm_tanh_f32(const float *x, float *y, ptrdiff_t n) {
        cl_vf8 f = cl_vm_tanhf8;
        ptrdiff_t i = 0;
        for (; i + 8 <= n; i += 8)
            _mm256_storeu_ps(y + i, f(_mm256_loadu_ps(x + i)));
        if (i < n) {
            float buf[8] = {0};
            memcpy(buf, x + i, (size_t)(n - i) * sizeof(float));
            _mm256_storeu_ps(buf, f(_mm256_loadu_ps(buf)));
            memcpy(y + i, buf, (size_t)(n - i) * sizeof(float));
        }
    }

    CL_AVX2 static void
    cl_vm_tanh_f64(const double *x, double *y, ptrdiff_t n) {
        cl_vd4 f = cl_vm_tanh4;
        ptrdiff_t i = 0;
        for (; i + 4 <= n; i += 4)
            _mm256_storeu_pd(y + i, f(_mm256_loadu_pd(x + i)));
        if (i < n) {
            double buf[4] = {0};
            memcpy(buf, x + i, (size_t)(n - i) * sizeof(double));
            _mm256_storeu_pd(buf, f(_mm256_loadu_pd(buf)));
            memcpy(y + i, buf, (size_t)(n - i) * sizeof(double));
        }
    }
    #else
    #define CL_HAVE_MVEC 0
    static int cl_vm_init(void) { return 0; }
    static void cl_vm_tanh_f32(const float *x, float *y, ptrdiff_t n) {
        (void)x; (void)y; (void)n;
    }
    static void cl_vm_tanh_f64(const double *x, double *y, ptrdiff_t n) {
        (void)x; (void)y; (void)n;
    }
    #endif
    """
    int cl_vm_init()
    void cl_vm_tanh_f32(const float* x, float* y, Py_ssize_t n)
    void cl_vm_tanh_f64(const double* x, double* y, Py_ssize_t n)

cdef bint _READY = cl_vm_init()


def vec_math_available():
    """Whether libmvec's AVX2 tanh runs on this machine."""
    return _READY


cdef bint tanh_f32(const float* x, float* y, Py_ssize_t n) noexcept nogil:
    """``y[i] = tanh(x[i])`` for ``i < n`` (x and y may be equal); False,
    with nothing written, where the vector library is absent."""
    if not _READY:
        return False
    cl_vm_tanh_f32(x, y, n)
    return True


cdef bint tanh_f64(const double* x, double* y, Py_ssize_t n) noexcept nogil:
    """:func:`tanh_f32` for float64."""
    if not _READY:
        return False
    cl_vm_tanh_f64(x, y, n)
    return True


cdef object tanh_array(x):
    """tanh of a float32/float64 NumPy array as a new C-contiguous array,
    or None where the vector library is absent or the dtype is another.
    The elements are done in chunks, and Ctrl-C is looked for between
    chunks (see ``chunks.pxd``)."""
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
    cdef const void* px = cnp.PyArray_DATA(a)
    cdef void* py = cnp.PyArray_DATA(y)
    # an element: about 2 units of work (see chunks.pxd)
    cdef Chunks todo = chunks(cnp.PyArray_SIZE(a), 2, 1)
    while next_chunk(&todo):
        with nogil:
            if single:
                cl_vm_tanh_f32(<const float*>px + todo.begin,
                               <float*>py + todo.begin, todo.end - todo.begin)
            else:
                cl_vm_tanh_f64(<const double*>px + todo.begin,
                               <double*>py + todo.begin,
                               todo.end - todo.begin)
    return y
