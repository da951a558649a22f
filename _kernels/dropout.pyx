# build: openmp
"""Dropout's mask, forward and gradient on NumPy arrays, one pass each.

The mask is drawn from a 64-bit key (one draw of the caller's random stream,
so that ``F.forget`` replays it): element ``i`` is kept where its 32-bit
word is at least ``threshold`` (``floor(ratio * 2**32)``). The words are
SplitMix64's outputs at positions ``key + (i // 2 + 1) * gamma`` (gamma the
golden-ratio constant), the low half for even ``i`` and the high half for
odd ``i``: a counter-based stream, so each element's word is computed
where it is used, in any order and on any thread, with the same result.

:func:`keep_mask` gives the mask (bool) of any shape; :func:`forward`
multiplies a float32/float64 array by its scaled mask and returns it with
the mask, in one pass; :func:`backward` multiplies the gradient by it.
Each scaled element is ``x * (scale if kept else 0)``, the product NumPy
gives with the scaled mask, bit for bit. They return None where they do not
apply (another dtype or array type, an array that is not one aligned
C-contiguous block, shapes that differ), and the caller keeps NumPy.
OpenMP's threads share a chunk as ``chunks.pxd``'s ``parts_of`` says (from
``PARALLEL_MIN_WORK`` units of work: a pair of elements of the forward is
about 3, an element of the gradient 1); Ctrl-C is looked for between chunks.
"""
cimport numpy as cnp
from cython.parallel cimport prange
from libc.stdint cimport uint32_t, uint64_t

from chainerlite._kernels.chunks cimport (
    Chunks, chunks, cl_max_threads, cut, next_chunk, parts_of)
from chainerlite._kernels.dtypes cimport float32, float64, descr_of

import numpy

cnp.import_array()

#: ``x * mask`` with the scaled mask in x's dtype, bit for bit.
PRECISION = 'bitwise NumPy'

cdef extern from * nogil:
    """
    #include <stddef.h>
    #include <stdint.h>

    #include "dispatch.h"

    #define CL_GAMMA 0x9E3779B97F4A7C15ull

    /* the 64-bit output of SplitMix64 at position z */
    static inline uint64_t cl_mix64(uint64_t z) {
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }

    /* Elements [2 p0, min(2 p1, n)) of pair p0 to p1 (the words of pair p
     * make elements 2p and 2p + 1): keep, and where x is given, y = x times
     * the scaled mask. */
    #define CL_DROPOUT_LOOPS(T, SUFFIX)                                       \\
        CL_CLONES static void cl_dropout_##SUFFIX(                            \\
            const T *x, T *y, unsigned char *keep, uint64_t key,              \\
            uint32_t thr, T scale, ptrdiff_t p0, ptrdiff_t p1, ptrdiff_t n) { \\
            ptrdiff_t full = p1 < n / 2 ? p1 : n / 2;                         \\
            for (ptrdiff_t p = p0; p < full; p++) {                           \\
                uint64_t z = cl_mix64(key + (uint64_t)(p + 1) * CL_GAMMA);    \\
                unsigned char k0 = (uint32_t)z >= thr;                        \\
                unsigned char k1 = (uint32_t)(z >> 32) >= thr;                \\
                keep[2 * p] = k0;                                             \\
                keep[2 * p + 1] = k1;                                         \\
                if (x) {                                                      \\
                    y[2 * p] = x[2 * p] * (k0 ? scale : (T)0);                \\
                    y[2 * p + 1] = x[2 * p + 1] * (k1 ? scale : (T)0);        \\
                }                                                             \\
            }                                                                 \\
            if (p1 > full && p0 <= full && (n & 1)) {                         \\
                uint64_t z = cl_mix64(key + (uint64_t)(full + 1) * CL_GAMMA); \\
                unsigned char k0 = (uint32_t)z >= thr;                        \\
                keep[n - 1] = k0;                                             \\
                if (x) y[n - 1] = x[n - 1] * (k0 ? scale : (T)0);             \\
            }                                                                 \\
        }                                                                     \\
        CL_CLONES static void cl_dropout_grad_##SUFFIX(                       \\
            const T *gy, const unsigned char *keep, T scale, T *gx,           \\
            ptrdiff_t b, ptrdiff_t e) {                                       \\
            for (ptrdiff_t i = b; i < e; i++)                                 \\
                gx[i] = gy[i] * (keep[i] ? scale : (T)0);                     \\
        }

    CL_DROPOUT_LOOPS(float, f32)
    CL_DROPOUT_LOOPS(double, f64)
    """
    void cl_dropout_f32(const float* x, float* y, unsigned char* keep,
                        uint64_t key, uint32_t thr, float scale,
                        Py_ssize_t p0, Py_ssize_t p1, Py_ssize_t n)
    void cl_dropout_f64(const double* x, double* y, unsigned char* keep,
                        uint64_t key, uint32_t thr, double scale,
                        Py_ssize_t p0, Py_ssize_t p1, Py_ssize_t n)
    void cl_dropout_grad_f32(const float* gy, const unsigned char* keep,
                             float scale, float* gx, Py_ssize_t b,
                             Py_ssize_t e)
    void cl_dropout_grad_f64(const double* gy, const unsigned char* keep,
                             double scale, double* gx, Py_ssize_t b,
                             Py_ssize_t e)


cdef int _kind(a):
    # 4 or 8 for an aligned C-contiguous float32/float64 ndarray, else 0
    if type(a) is not cnp.ndarray:
        return 0
    cdef cnp.ndarray arr = <cnp.ndarray>a
    dtype = descr_of(arr)
    if dtype is not float32() and dtype is not float64():
        return 0
    if not (cnp.PyArray_ISALIGNED(arr) and cnp.PyArray_IS_C_CONTIGUOUS(arr)):
        return 0
    return dtype.itemsize


cdef enum:
    # what _split runs: forward (mask and product) or gradient, by dtype
    FORWARD_F32, FORWARD_F64, GRAD_F32, GRAD_F64


cdef int _split(int op, const void* src, void* dst, unsigned char* keep,
                uint64_t key, uint32_t thr, double scale,
                Py_ssize_t n) except -1:
    # runs op over n elements (in pairs for the forward), in chunks, each
    # shared by the threads parts_of gives it
    cdef bint forward = op == FORWARD_F32 or op == FORWARD_F64
    cdef float s32 = <float>scale
    cdef int threads = cl_max_threads()
    cdef int parts
    cdef Py_ssize_t t, b, e
    # a pair of elements: about 3 units of work; a gradient's element: 1
    cdef Py_ssize_t work = 3 if forward else 1
    cdef Chunks todo = chunks((n + 1) // 2 if forward else n, work, threads)
    while next_chunk(&todo):
        parts = parts_of(todo.end - todo.begin, work, threads)
        with nogil:
            for t in prange(parts, schedule='static', num_threads=parts,
                            use_threads_if=parts > 1):
                b = cut(todo.begin, todo.end, parts, t)
                e = cut(todo.begin, todo.end, parts, t + 1)
                if op == FORWARD_F32:
                    cl_dropout_f32(<const float*>src, <float*>dst, keep, key,
                                   thr, s32, b, e, n)
                elif op == FORWARD_F64:
                    cl_dropout_f64(<const double*>src, <double*>dst, keep,
                                   key, thr, scale, b, e, n)
                elif op == GRAD_F32:
                    cl_dropout_grad_f32(<const float*>src, keep, s32,
                                        <float*>dst, b, e)
                else:
                    cl_dropout_grad_f64(<const double*>src, keep, scale,
                                        <double*>dst, b, e)
    return 0


cdef object _run(x, shape, uint64_t key, uint32_t thr, double scale):
    # the mask of `shape` and, where x is given, x times the scaled mask
    cdef cnp.ndarray keep = numpy.empty(shape, numpy.bool_)
    cdef cnp.ndarray y = None if x is None else numpy.empty_like(x)
    cdef bint single = x is None or descr_of(<cnp.ndarray>x) is float32()
    _split(FORWARD_F32 if single else FORWARD_F64,
           NULL if x is None else cnp.PyArray_DATA(x),
           NULL if x is None else cnp.PyArray_DATA(y),
           <unsigned char*>cnp.PyArray_DATA(keep), key, thr, scale,
           cnp.PyArray_SIZE(keep))
    return keep if x is None else (y, keep)


def keep_mask(shape, uint64_t key, uint32_t threshold):
    """The mask of ``shape`` drawn from ``key``: a new C-contiguous bool
    array, True where an element's word is at least ``threshold``."""
    return _run(None, tuple(shape), key, threshold, 0.0)


def forward(x, uint64_t key, uint32_t threshold, scale):
    """``(y, keep)``: the mask of x's shape drawn from ``key`` (as
    :func:`keep_mask`) and ``y = x * (scale if kept else 0)`` in x's dtype,
    in one pass; or None where x is not an aligned C-contiguous
    float32/float64 array."""
    if _kind(x) == 0:
        return None
    return _run(x, x.shape, key, threshold, scale)


def backward(gy, keep, scale):
    """``gy * (scale if keep else 0)`` in gy's dtype, or None where gy is not
    an aligned C-contiguous float32/float64 array or ``keep`` not a
    C-contiguous bool array of its shape."""
    cdef int kind = _kind(gy)
    if kind == 0 or type(keep) is not cnp.ndarray:
        return None
    cdef cnp.ndarray k = <cnp.ndarray>keep
    if (k.descr.type_num != cnp.NPY_BOOL or not cnp.PyArray_IS_C_CONTIGUOUS(k)
            or not cnp.PyArray_SAMESHAPE(k, <cnp.ndarray>gy)):
        return None
    cdef cnp.ndarray gx = numpy.empty_like(gy)
    _split(GRAD_F32 if kind == 4 else GRAD_F64, cnp.PyArray_DATA(gy),
           cnp.PyArray_DATA(gx), <unsigned char*>cnp.PyArray_DATA(k), 0, 0,
           scale, cnp.PyArray_SIZE(gx))
    return gx
