# cython: boundscheck=False, wraparound=False
# build: openmp
# (kernels: their loops index only within the shapes they read)
"""Compiled 2-D max pooling on the CPU: the forward and its gradient.

They give exactly the results of the NumPy path of
:mod:`chainerlite.functions.pooling.max_pooling_nd`: the running maximum
over the taps in C order (as ``numpy.maximum``: NaN propagates, and of two
equal values the later tap's is kept), as the index the first tap that
holds it or, in a window with NaN, the first NaN (as ``numpy.argmax``, and
Chainer), and gradients summed onto each pixel in the order of the taps.
Padding is ``-inf``. OpenMP shares the image planes among its threads once
an array is large enough.

Each plane is done by a ``nogil`` function on raw pointers and local
variables (which the compiler keeps in registers, unlike the shared
variables of a ``prange`` body). Along rows of unit stride, the windows
that lie inside the image go to the vectorised kernels of
the C below (2x2 windows 2 apart have their own), a block of rows
at a time; the windows that reach into the padding, and every window of a
strided row, are done one by one, those inside the image without bounds
tests. The gradient of disjoint windows takes the same split; that of
overlapping ones is done one by one, in reverse order (see
``_grad_plane``).

A window that reaches into the padding is run over only where it meets the
image, so the work is bounded by the image whatever the window size (a
``ksize`` of ``10 ** 9`` on a 5x5 image is 25 taps, not ``10 ** 18``). The
planes are done in chunks with the GIL released, and Ctrl-C is looked for
between chunks, outside the parallel loops (see ``chunks.pxd``).
"""
cimport numpy as cnp
from chainerlite._kernels.argcheck cimport Span, array_span, overlap
from chainerlite._kernels.chunks cimport Chunks, chunks, cl_max_threads, next_chunk
from cython.parallel cimport prange
from libc.math cimport INFINITY

cnp.import_array()

ctypedef fused real:
    float
    double

#: Elements below which one thread does the work.
#: Values, indexes and gradients of Chainer's max pooling, bit for bit.
PRECISION = 'bitwise Chainer'

cdef Py_ssize_t PARALLEL_MIN = 1 << 17
#: Outputs that a task of a stacked array (see ``_plane_step``) takes at
#: least: many small planes in one call of the kernels, not one each.
cdef Py_ssize_t GROUP_MIN = 1 << 12


cdef inline void _take(real v, Py_ssize_t k, real* best,
                       Py_ssize_t* best_k) noexcept nogil:
    # One more tap of the running maximum (the first one is taken as is):
    # a larger v, or the first NaN, moves the index; v replaces the maximum
    # unless it is smaller or the maximum is NaN (so an equal v gives its
    # sign, a NaN propagates). Selects, not branches: on random data the
    # comparison is unpredictable.
    cdef real b = best[0]
    cdef bint larger = (b == b) & (not v <= b)
    cdef bint replace = (b == b) & (not v < b)
    best_k[0] = k if larger else best_k[0]
    best[0] = v if replace else b


cdef extern from * nogil:
    """
    /* Kernels of 2-D max pooling for the windows that lie inside the image,
     * along rows of unit stride: a block of rows x n windows (or one row of
     * them) per call, the forward and the gradient of disjoint windows.
     *
     * The forward takes the taps of a window in C order with the comparisons
     * of the one-by-one loop of pool.pyx (CL_POOL_TAKE, then
     * CL_POOL_NAN_INDEX), so values and indexes are the same bit for bit; only the bounds tests and the per-tap
     * branches are gone, and the loops over the windows are left for the
     * compiler to vectorise. The gradient adds each gy onto the one pixel its
     * index names, as that loop does. On x86-64 with GCC each is compiled for
     * AVX-512, AVX2 and the baseline, and the loader picks the one the CPU
     * runs (target_clones).
     */

    #include <stddef.h>

    #include "dispatch.h"

    /* One more tap v (number k) of the running maximum best at best_k: a
     * larger v moves the index; v replaces the maximum unless it is smaller or
     * the maximum is NaN (so an equal v gives its sign, a NaN propagates).
     * Selects, not branches, so that the loops vectorise. A NaN does not move
     * the index here: the windows whose maximum is NaN, rare, have it moved
     * to their first NaN afterwards (CL_POOL_NAN_INDEX), which costs less
     * than a second select per tap. */
    #define CL_POOL_TAKE(T, v, k, best, best_k)                                 \
        do {                                                                    \
            T v_ = (v);                                                         \
            T b_ = (best);                                                      \
            T m_ = v_ < b_ ? b_ : v_;                                           \
            (best_k) = v_ > b_ ? (k) : (best_k);                                \
            (best) = b_ != b_ ? b_ : m_;                                        \
        } while (0)

    /* The n windows (kh x kw, sx apart, rows s_h apart from row) whose
     * maximum in dst is NaN get the index of their first NaN, as numpy.argmax
     * (and Chainer) give. */
    #define CL_POOL_NAN_INDEX(T, row, s_h, kh, kw, sx, dst, index, n)           \
        do {                                                                    \
            for (ptrdiff_t o = 0; o < (n); o++) {                               \
                if ((dst)[o] == (dst)[o])                                       \
                    continue;                                                   \
                for (ptrdiff_t k = 0; k < (ptrdiff_t)(kh) * (kw); k++) {        \
                    T v_ = (row)[(k / (kw)) * (s_h) + k % (kw) + o * (sx)];     \
                    if (v_ != v_) {                                             \
                        (index)[o] = k;                                         \
                        break;                                                  \
                    }                                                           \
                }                                                               \
            }                                                                   \
        } while (0)

    /* The loops of cl_pool_max2x2 over rows x n windows (n: its argument or
     * a constant); whether a maximum is NaN is gathered on the way (a
     * vectorised OR), and the rows looked at again only then. */
    #define CL_POOL_MAX2X2_ROWS(T, N)                                           \
        do {                                                                    \
            int nan = 0;                                                        \
            for (ptrdiff_t r = 0; r < rows; r++) {                              \
                const T *r0 = src + r * step;                                   \
                const T *r1 = r0 + s_h;                                         \
                T *d = dst + r * d_s;                                           \
                ptrdiff_t *at = index + r * d_s;                                \
                for (ptrdiff_t o = 0; o < (N); o++) {                           \
                    T best = r0[2 * o];                                         \
                    ptrdiff_t k = 0;                                            \
                    CL_POOL_TAKE(T, r0[2 * o + 1], 1, best, k);                 \
                    CL_POOL_TAKE(T, r1[2 * o], 2, best, k);                     \
                    CL_POOL_TAKE(T, r1[2 * o + 1], 3, best, k);                 \
                    d[o] = best;                                                \
                    at[o] = k;                                                  \
                    nan |= best != best;                                        \
                }                                                               \
            }                                                                   \
            for (ptrdiff_t r = 0; nan && r < rows; r++)                         \
                CL_POOL_NAN_INDEX(T, src + r * step, s_h, 2, 2, 2,              \
                                  dst + r * d_s, index + r * d_s, (N));         \
        } while (0)

    /* GCC vectorises the selects of CL_POOL_TAKE only when comparisons may be
     * evaluated whether or not they are needed, which the default
     * -ftrapping-math forbids (they may raise the invalid flag on a NaN). The
     * flags are not looked at, and the values are unchanged: the option keeps
     * NaNs, infinities and signed zeros as they are. */
    #pragma GCC push_options
    #pragma GCC optimize("no-trapping-math")
    #define CL_POOL_LOOPS(T, S)                                                 \
        /* rows x n 2x2 windows side by side: row r's windows start at       \
         * src + r * step (their second rows s_h further), its outputs at      \
         * dst + r * d_s. A short row is done with n a constant (the loop over \
         * its windows unrolled and the rows vectorised): the vector loop over \
         * a row of 2, 4 or 8 windows is mostly its set-up. */                 \
        CL_CLONES static void cl_pool_max2x2_##S(                         \
            const T *restrict src, ptrdiff_t s_h, ptrdiff_t step,               \
            ptrdiff_t rows, ptrdiff_t n, T *restrict dst,                       \
            ptrdiff_t *restrict index, ptrdiff_t d_s) {                         \
            switch (n) {                                                        \
            case 2:                                                             \
                CL_POOL_MAX2X2_ROWS(T, 2);                                      \
                break;                                                          \
            case 4:                                                             \
                CL_POOL_MAX2X2_ROWS(T, 4);                                      \
                break;                                                          \
            case 8:                                                             \
                CL_POOL_MAX2X2_ROWS(T, 8);                                      \
                break;                                                          \
            default:                                                            \
                CL_POOL_MAX2X2_ROWS(T, n);                                      \
            }                                                                   \
        }                                                                       \
        /* kh x kw windows sx apart, rows s_h apart: one pass over the row of  \
         * windows per tap, the running maxima kept in dst and index */         \
        CL_CLONES static void cl_pool_max_taps_##S(                       \
            const T *restrict row, ptrdiff_t s_h, int kh, int kw, int sx,       \
            T *restrict dst, ptrdiff_t *restrict index, ptrdiff_t n) {          \
            for (ptrdiff_t o = 0; o < n; o++) {                                 \
                dst[o] = row[o * sx];                                           \
                index[o] = 0;                                                   \
            }                                                                   \
            int nan = 0;                                                        \
            for (ptrdiff_t k = 1; k < (ptrdiff_t)kh * kw; k++) {                \
                const T *tap = row + (k / kw) * s_h + k % kw;                   \
                for (ptrdiff_t o = 0; o < n; o++)                               \
                    CL_POOL_TAKE(T, tap[o * sx], k, dst[o], index[o]);          \
            }                                                                   \
            for (ptrdiff_t o = 0; o < n; o++)                                   \
                nan |= dst[o] != dst[o];                                        \
            if (nan)                                                            \
                CL_POOL_NAN_INDEX(T, row, s_h, kh, kw, sx, dst, index, n);      \
        }                                                                       \
        /* gradient of rows x n disjoint 2x2 windows side by side: row r's    \
         * gy and index at gy + r * g_h and index + r * d_s, its windows from   \
         * gx + r * step (rows w apart); gy[o] is added onto the tap index[o]  \
         * names (an index outside the window adds nothing). Its address is   \
         * computed, not chosen by branches: they would be mispredicted. */     \
        CL_CLONES static void cl_pool_grad2x2_##S(                        \
            const T *restrict gy, ptrdiff_t g_h, const ptrdiff_t *restrict index,\
            ptrdiff_t d_s, T *restrict gx, ptrdiff_t w, ptrdiff_t step,          \
            ptrdiff_t rows, ptrdiff_t n) {                                      \
            for (ptrdiff_t r = 0; r < rows; r++) {                              \
                const T *g = gy + r * g_h;                                      \
                const ptrdiff_t *idx = index + r * d_s;                         \
                T *row = gx + r * step;                                         \
                for (ptrdiff_t o = 0; o < n; o++) {                             \
                    ptrdiff_t at = idx[o];                                      \
                    if ((size_t)at < 4)                                         \
                        row[(at >> 1) * w + 2 * o + (at & 1)] += g[o];          \
                }                                                               \
            }                                                                   \
        }                                                                       \
        /* gradient of kh x kw windows sx apart that do not overlap, rows w    \
         * apart in gx: one pass per tap */                                     \
        CL_CLONES static void cl_pool_grad_taps_##S(                      \
            const T *restrict gy, const ptrdiff_t *restrict index,              \
            T *restrict gx, ptrdiff_t w, int kh, int kw, int sx, ptrdiff_t n) { \
            for (ptrdiff_t k = 0; k < (ptrdiff_t)kh * kw; k++) {                \
                T *tap = gx + (k / kw) * w + k % kw;                            \
                for (ptrdiff_t o = 0; o < n; o++) {                             \
                    T t = tap[o * sx];                                          \
                    tap[o * sx] = index[o] == k ? t + gy[o] : t;                \
                }                                                               \
            }                                                                   \
        }

    CL_POOL_LOOPS(float, f32)
    CL_POOL_LOOPS(double, f64)
    #pragma GCC pop_options
    """
    void cl_pool_max2x2_f32(const float* src, Py_ssize_t s_h,
                            Py_ssize_t step, Py_ssize_t rows, Py_ssize_t n,
                            float* dst, Py_ssize_t* index, Py_ssize_t d_s)
    void cl_pool_max2x2_f64(const double* src, Py_ssize_t s_h,
                            Py_ssize_t step, Py_ssize_t rows, Py_ssize_t n,
                            double* dst, Py_ssize_t* index, Py_ssize_t d_s)
    void cl_pool_max_taps_f32(const float* row, Py_ssize_t s_h, int kh,
                              int kw, int sx, float* dst,
                              Py_ssize_t* index, Py_ssize_t n)
    void cl_pool_max_taps_f64(const double* row, Py_ssize_t s_h, int kh,
                              int kw, int sx, double* dst,
                              Py_ssize_t* index, Py_ssize_t n)
    void cl_pool_grad2x2_f32(const float* gy, Py_ssize_t g_h,
                             const Py_ssize_t* index, Py_ssize_t d_s,
                             float* gx, Py_ssize_t w, Py_ssize_t step,
                             Py_ssize_t rows, Py_ssize_t n)
    void cl_pool_grad2x2_f64(const double* gy, Py_ssize_t g_h,
                             const Py_ssize_t* index, Py_ssize_t d_s,
                             double* gx, Py_ssize_t w, Py_ssize_t step,
                             Py_ssize_t rows, Py_ssize_t n)
    void cl_pool_grad_taps_f32(const float* gy, const Py_ssize_t* index,
                               float* gx, Py_ssize_t w, int kh, int kw,
                               int sx, Py_ssize_t n)
    void cl_pool_grad_taps_f64(const double* gy, const Py_ssize_t* index,
                               double* gx, Py_ssize_t w, int kh, int kw,
                               int sx, Py_ssize_t n)


cdef inline void _inside(Py_ssize_t d, Py_ssize_t outs, int k, int s,
                         int p, Py_ssize_t* lo, Py_ssize_t* hi) noexcept nogil:
    # [lo, hi): the output positions along one axis whose windows lie
    # inside the image (empty when lo >= hi)
    lo[0] = (<Py_ssize_t>p + s - 1) // s
    hi[0] = (d + p - k) // s + 1 if d + p >= k else 0
    if hi[0] > outs:
        hi[0] = outs


cdef void _max_windows(
        const real* src, Py_ssize_t s_h, Py_ssize_t s_w, Py_ssize_t h,
        Py_ssize_t w, real* dst, Py_ssize_t* index, Py_ssize_t y0,
        Py_ssize_t ox_begin, Py_ssize_t ox_end, int kh, int kw, int sx,
        int px) noexcept nogil:
    # the windows ox_begin..ox_end - 1 of the output row whose windows
    # start at image row y0, into dst[ox], index[ox]
    cdef Py_ssize_t ox, x0, k, i, j, i0, i1, j0, j1
    cdef real best
    cdef Py_ssize_t best_k
    cdef const real* row
    for ox in range(ox_begin, ox_end):
        x0 = ox * sx - px
        if y0 >= 0 and y0 + kh <= h and x0 >= 0 and x0 + kw <= w:
            row = src + y0 * s_h + x0 * s_w
            best = row[0]
            best_k = 0
            k = 0
            for i in range(kh):
                for j in range(kw):
                    if k > 0:
                        _take(row[i * s_h + j * s_w], k, &best, &best_k)
                    k += 1
        else:
            # Only the taps on the image: a padding tap (-inf) changes
            # neither the maximum nor its index once one is taken, and
            # before any is, the maximum is -inf at index 0 (tap 0's).
            best_k = 0
            best = -INFINITY
            i0 = -y0 if y0 < 0 else 0
            i1 = h - y0 if y0 + kh > h else kh
            j0 = -x0 if x0 < 0 else 0
            j1 = w - x0 if x0 + kw > w else kw
            for i in range(i0, i1):
                for j in range(j0, j1):
                    _take(src[(y0 + i) * s_h + (x0 + j) * s_w], i * kw + j,
                          &best, &best_k)
        dst[ox] = best
        index[ox] = best_k


cdef inline void _max_block(
        const real* src, Py_ssize_t s_h, real* dst, Py_ssize_t* index,
        Py_ssize_t d_s, Py_ssize_t rows, Py_ssize_t n, int kh, int kw,
        int sy, int sx) noexcept nogil:
    # rows x n windows inside the image along contiguous rows, the first
    # at src (rows of windows sy image rows apart), outputs d_s apart
    cdef Py_ssize_t r
    if kh == 2 and kw == 2 and sx == 2:
        if real is float:
            cl_pool_max2x2_f32(src, s_h, sy * s_h, rows, n, dst, index, d_s)
        else:
            cl_pool_max2x2_f64(src, s_h, sy * s_h, rows, n, dst, index, d_s)
        return
    for r in range(rows):
        if real is float:
            cl_pool_max_taps_f32(src + r * sy * s_h, s_h, kh, kw, sx,
                                 dst + r * d_s, index + r * d_s, n)
        else:
            cl_pool_max_taps_f64(src + r * sy * s_h, s_h, kh, kw, sx,
                                 dst + r * d_s, index + r * d_s, n)


cdef void _max_plane(
        const real* src, Py_ssize_t s_h, Py_ssize_t s_w, Py_ssize_t h,
        Py_ssize_t w, real* dst, Py_ssize_t* index, Py_ssize_t oh,
        Py_ssize_t ow, int kh, int kw, int sy, int sx, int py,
        int px) noexcept nogil:
    # one image plane (strides s_h, s_w in elements) into the C-contiguous
    # (oh, ow) planes dst and index: along a contiguous row, the windows
    # inside the image by the row kernels, the others (and every window of
    # a strided row) one by one
    cdef Py_ssize_t oy, y0, oy_lo, oy_hi, ox_lo, ox_hi
    _inside(h, oh, kh, sy, py, &oy_lo, &oy_hi)
    _inside(w, ow, kw, sx, px, &ox_lo, &ox_hi)
    if s_w != 1 or ox_lo >= ox_hi:
        oy_hi = oy_lo
    for oy in range(oh):
        y0 = oy * sy - py
        if oy < oy_lo or oy >= oy_hi:
            _max_windows(src, s_h, s_w, h, w, dst + oy * ow, index + oy * ow,
                         y0, 0, ow, kh, kw, sx, px)
        else:
            # the windows that reach into the padding
            _max_windows(src, s_h, s_w, h, w, dst + oy * ow, index + oy * ow,
                         y0, 0, ox_lo, kh, kw, sx, px)
            _max_windows(src, s_h, s_w, h, w, dst + oy * ow, index + oy * ow,
                         y0, ox_hi, ow, kh, kw, sx, px)
    if oy_lo < oy_hi:
        _max_block(src + (oy_lo * sy - py) * s_h + ox_lo * sx - px, s_h,
                   dst + oy_lo * ow + ox_lo, index + oy_lo * ow + ox_lo, ow,
                   oy_hi - oy_lo, ox_hi - ox_lo, kh, kw, sy, sx)


cdef inline Py_ssize_t _plane_step(
        Py_ssize_t n, Py_ssize_t c, Py_ssize_t s_n, Py_ssize_t s_c,
        Py_ssize_t rows, Py_ssize_t row_step) noexcept nogil:
    # The distance between planes when they are stacked: the same between
    # any two planes one after the other, and the rows of windows of one
    # plane leading on to those of the next (rows of them row_step apart);
    # then all the planes are one block of n * c * rows rows. Else 0.
    cdef Py_ssize_t step = s_c if c > 1 else s_n
    if c > 1 and n > 1 and s_n != c * s_c:
        return 0
    if n * c > 1 and step != rows * row_step:
        return 0
    return rows * row_step


cdef inline bint _all_inside(Py_ssize_t h, Py_ssize_t w, Py_ssize_t oh,
                             Py_ssize_t ow, int kh, int kw, int sy, int sx,
                             int py, int px) noexcept nogil:
    # whether every window lies inside the image
    cdef Py_ssize_t oy_lo, oy_hi, ox_lo, ox_hi
    _inside(h, oh, kh, sy, py, &oy_lo, &oy_hi)
    _inside(w, ow, kw, sx, px, &ox_lo, &ox_hi)
    return oy_lo == 0 and oy_hi == oh and ox_lo == 0 and ox_hi == ow


cdef int _check(str fname, cnp.ndarray a, str name, int typenum,
                bint contiguous, bint out) except -1:
    # a 4-d aligned array of the type typenum, C-contiguous if asked (an
    # output: C-contiguous and writable), as the kernels read it
    cdef str problem = None
    if cnp.PyArray_NDIM(a) != 4:
        problem = 'must be 4-d, not {}-d'.format(a.ndim)
    elif cnp.PyArray_TYPE(a) != typenum:
        problem = 'must be of dtype {}, not {}'.format(
            cnp.PyArray_DescrFromType(typenum), a.dtype)
    elif not cnp.PyArray_ISALIGNED(a):
        problem = 'is not aligned'
    elif (contiguous or out) and not cnp.PyArray_IS_C_CONTIGUOUS(a):
        problem = 'must be C-contiguous'
    elif out and not cnp.PyArray_ISWRITEABLE(a):
        problem = 'is read-only'
    if problem is not None:
        raise ValueError('{}: {} {}'.format(fname, name, problem))
    return 0


cdef int _check_all(str fname, cnp.ndarray images, str name,
                    cnp.ndarray outs, str outs_name, cnp.ndarray indexes,
                    bint write_images) except -1:
    # the images (float32 or float64), the outputs of the windows (their
    # dtype) and the indexes (intp, of the outputs' shape) of the kernel
    # ``fname``
    cdef int typenum = cnp.PyArray_TYPE(images)
    if typenum != cnp.NPY_FLOAT32 and typenum != cnp.NPY_FLOAT64:
        raise ValueError('{}: {} must be float32 or float64, not {}'.format(
            fname, name, images.dtype))
    _check(fname, images, name, typenum, False, write_images)
    _check(fname, outs, outs_name, typenum, False, not write_images)
    _check(fname, indexes, 'indexes', cnp.NPY_INTP, True, not write_images)
    cdef int i
    for i in range(4):
        if (i < 2 and outs.shape[i] != images.shape[i] or
                indexes.shape[i] != outs.shape[i]):
            raise ValueError(
                '{}: shapes do not match: {} {}, {} {}, indexes {}'.format(
                    fname, name, (<object>images).shape, outs_name,
                    (<object>outs).shape, (<object>indexes).shape))
    return 0


cdef int _check_apart(str fname, cnp.ndarray images, cnp.ndarray outs,
                      cnp.ndarray indexes) except -1:
    # the arrays of a call share no memory (one is written while the
    # others are read)
    cdef Span a = array_span(images), b = array_span(outs)
    cdef Span c = array_span(indexes)
    if overlap(a, b) or overlap(a, c) or overlap(b, c):
        raise ValueError('{}: arrays overlap in memory'.format(fname))
    return 0


cdef int _check_windows(str fname, int kh, int kw, int sy, int sx,
                        int py, int px) except -1:
    # the kernels divide by the strides
    if kh < 1 or kw < 1 or sy < 1 or sx < 1 or py < 0 or px < 0:
        raise ValueError(
            '{}: window sizes and strides must be positive and paddings '
            'non-negative: {}'.format(fname, (kh, kw, sy, sx, py, px)))
    return 0


cdef inline Py_ssize_t _taps_on_image(Py_ssize_t h, Py_ssize_t w, int kh,
                                      int kw) noexcept nogil:
    # the most taps of a window that meet the image
    return (kh if kh < h else h) * (kw if kw < w else w)


cdef void _forward(const real* x, const cnp.npy_intp* shape,
                   const cnp.npy_intp* strides, real* y, Py_ssize_t* indexes,
                   Py_ssize_t oh, Py_ssize_t ow, int kh, int kw, int sy,
                   int sx, int py, int px, Py_ssize_t begin,
                   Py_ssize_t end) noexcept nogil:
    # the planes begin..end - 1 of x of shape and strides (bytes), into the
    # C-contiguous y and indexes
    cdef Py_ssize_t c = shape[1], planes = end - begin
    cdef Py_ssize_t h = shape[2], w = shape[3], p, step, per, first
    cdef Py_ssize_t s_n = strides[0] // <Py_ssize_t>sizeof(real)
    cdef Py_ssize_t s_c = strides[1] // <Py_ssize_t>sizeof(real)
    cdef Py_ssize_t s_h = strides[2] // <Py_ssize_t>sizeof(real)
    cdef Py_ssize_t s_w = strides[3] // <Py_ssize_t>sizeof(real)
    cdef bint parallel = (planes * oh * ow * _taps_on_image(h, w, kh, kw)
                          >= PARALLEL_MIN)
    if planes * oh * ow == 0:
        return
    step = _plane_step(shape[0], c, s_n, s_c, oh, sy * s_h)
    if (s_w == 1 and step > 0 and
            _all_inside(h, w, oh, ow, kh, kw, sy, sx, py, px)):
        # stacked planes: groups of them, each one block of rows
        per = (GROUP_MIN + oh * ow - 1) // (oh * ow)
        for p in prange((planes + per - 1) // per, schedule='static',
                        use_threads_if=parallel):
            first = begin + p * per
            _max_block(x + first * step, s_h, y + first * oh * ow,
                       indexes + first * oh * ow, ow,
                       (per if end - first > per else end - first) * oh,
                       ow, kh, kw, sy, sx)
        return
    for p in prange(begin, end, schedule='static',
                    use_threads_if=parallel):
        _max_plane(x + (p // c) * s_n + (p % c) * s_c, s_h, s_w, h, w,
                   y + p * oh * ow, indexes + p * oh * ow, oh, ow, kh, kw,
                   sy, sx, py, px)


def max_pooling_2d(cnp.ndarray x not None, cnp.ndarray y not None,
                   cnp.ndarray indexes not None, int kh, int kw, int sy,
                   int sx, int py, int px):
    """Fills ``y`` with the window maxima of ``x`` and ``indexes`` with
    their positions in the flattened ``(kh, kw)`` windows.

    ``x`` is a float32 or float64 array of shape ``(n, c, h, w)`` (copied
    first if it is not aligned); ``y`` (of its dtype) and ``indexes``
    (intp) are C-contiguous and writable, of shape ``(n, c, oh, ow)``.
    Plain arrays, not memoryviews, are taken: checking them is cheaper
    than acquiring three buffers, which matters for small images.

    Raises:
        ValueError: If the arrays are not of these dtypes, layouts and
            shapes or overlap in memory, or a window size or stride is not
            positive or a padding is negative.
    """
    if not cnp.PyArray_ISALIGNED(x):
        x = cnp.PyArray_NewCopy(x, cnp.NPY_CORDER)  # (as the kernels read)
    _check_all('max_pooling_2d', x, 'x', y, 'y', indexes, False)
    _check_windows('max_pooling_2d', kh, kw, sy, sx, py, px)
    _check_apart('max_pooling_2d', x, y, indexes)
    _run(False, x, y, indexes, kh, kw, sy, sx, py, px,
         y.shape[2] * y.shape[3] * _taps_on_image(x.shape[2], x.shape[3], kh,
                                                  kw))


cdef void _grad_windows(
        const real* gy, Py_ssize_t g_w, const Py_ssize_t* index, real* gx,
        Py_ssize_t h, Py_ssize_t w, Py_ssize_t oy, Py_ssize_t ox_begin,
        Py_ssize_t ox_end, int kw, int sy, int sx, int py,
        int px) noexcept nogil:
    # the windows ox_end - 1 down to ox_begin of output row oy (gy, index:
    # that row)
    cdef Py_ssize_t ox, iy, ix, at
    for ox in range(ox_end - 1, ox_begin - 1, -1):
        at = index[ox]
        iy = oy * sy + at // kw - py
        ix = ox * sx + at % kw - px
        if iy >= 0 and iy < h and ix >= 0 and ix < w:
            gx[iy * w + ix] += gy[ox * g_w]


cdef inline void _grad_block(
        const real* gy, Py_ssize_t g_h, const Py_ssize_t* index,
        Py_ssize_t d_s, real* gx, Py_ssize_t w, Py_ssize_t rows,
        Py_ssize_t n, int kh, int kw, int sy, int sx) noexcept nogil:
    # rows x n disjoint windows inside the image, the first at gx (rows w
    # apart); gy along contiguous rows g_h apart, index rows d_s apart
    cdef Py_ssize_t r
    if kh == 2 and kw == 2 and sx == 2:
        if real is float:
            cl_pool_grad2x2_f32(gy, g_h, index, d_s, gx, w, sy * w, rows, n)
        else:
            cl_pool_grad2x2_f64(gy, g_h, index, d_s, gx, w, sy * w, rows, n)
        return
    for r in range(rows):
        if real is float:
            cl_pool_grad_taps_f32(gy + r * g_h, index + r * d_s,
                                  gx + r * sy * w, w, kh, kw, sx, n)
        else:
            cl_pool_grad_taps_f64(gy + r * g_h, index + r * d_s,
                                  gx + r * sy * w, w, kh, kw, sx, n)


cdef void _grad_plane(
        const real* gy, Py_ssize_t g_h, Py_ssize_t g_w,
        const Py_ssize_t* index, real* gx, Py_ssize_t h, Py_ssize_t w,
        Py_ssize_t oh, Py_ssize_t ow, bint overlapping, int kh, int kw,
        int sy, int sx, int py, int px) noexcept nogil:
    # one plane: gy (strides g_h, g_w) onto the C-contiguous (h, w) gx;
    # disjoint windows inside the image along a contiguous gy row by the
    # row kernels, the others one by one. Each pixel sums its gradients in
    # the order of the taps that name it (as the NumPy path, a pass per
    # tap); the tap of a pixel in the window at (oy, ox) is
    # (y + py - oy * sy, x + px - ox * sx), so a later tap is a window
    # earlier in C order: one pass over the windows in reverse order adds
    # them in that order, whatever the number of taps.
    cdef Py_ssize_t oy, oy_lo, oy_hi, ox_lo, ox_hi
    _inside(h, oh, kh, sy, py, &oy_lo, &oy_hi)
    _inside(w, ow, kw, sx, px, &ox_lo, &ox_hi)
    if overlapping or g_w != 1 or ox_lo >= ox_hi:
        oy_hi = oy_lo
    for oy in range(oh - 1, -1, -1):
        if oy < oy_lo or oy >= oy_hi:
            _grad_windows(gy + oy * g_h, g_w, index + oy * ow, gx, h, w,
                          oy, 0, ow, kw, sy, sx, py, px)
        else:
            # the windows that reach into the padding
            _grad_windows(gy + oy * g_h, g_w, index + oy * ow, gx, h, w,
                          oy, ox_hi, ow, kw, sy, sx, py, px)
            _grad_windows(gy + oy * g_h, g_w, index + oy * ow, gx, h, w,
                          oy, 0, ox_lo, kw, sy, sx, py, px)
    if oy_lo < oy_hi:
        _grad_block(gy + oy_lo * g_h + ox_lo, g_h,
                    index + oy_lo * ow + ox_lo, ow,
                    gx + (oy_lo * sy - py) * w + ox_lo * sx - px, w,
                    oy_hi - oy_lo, ox_hi - ox_lo, kh, kw, sy, sx)


cdef void _backward(const real* gy, const cnp.npy_intp* shape,
                    const cnp.npy_intp* strides, real* gx,
                    const Py_ssize_t* indexes, Py_ssize_t h, Py_ssize_t w,
                    int kh, int kw,
                    int sy, int sx, int py, int px, Py_ssize_t begin,
                    Py_ssize_t end) noexcept nogil:
    # the planes begin..end - 1 of gy of shape and strides (bytes) onto the
    # C-contiguous (.., h, w) gx
    cdef Py_ssize_t c = shape[1], planes = end - begin
    cdef Py_ssize_t oh = shape[2], ow = shape[3], p, per, first
    cdef Py_ssize_t g_n = strides[0] // <Py_ssize_t>sizeof(real)
    cdef Py_ssize_t g_c = strides[1] // <Py_ssize_t>sizeof(real)
    cdef Py_ssize_t g_h = strides[2] // <Py_ssize_t>sizeof(real)
    cdef Py_ssize_t g_w = strides[3] // <Py_ssize_t>sizeof(real)
    # Disjoint windows give a pixel at most one gradient, so their order
    # does not matter (see _grad_plane for overlapping ones).
    cdef bint overlapping = sy < kh or sx < kw
    cdef bint parallel = planes * h * w >= PARALLEL_MIN
    if planes * oh * ow == 0:
        return
    if (not overlapping and g_w == 1 and h == oh * sy and
            _plane_step(shape[0], c, g_n, g_c, oh, g_h) > 0 and
            _all_inside(h, w, oh, ow, kh, kw, sy, sx, py, px)):
        # stacked planes (gx's are, as its height is oh * sy): groups of
        # them, each one block of rows
        per = (GROUP_MIN + oh * ow - 1) // (oh * ow)
        for p in prange((planes + per - 1) // per, schedule='static',
                        use_threads_if=parallel):
            first = begin + p * per
            _grad_block(gy + first * oh * g_h, g_h,
                        indexes + first * oh * ow, ow,
                        gx + first * oh * sy * w, w,
                        (per if end - first > per else end - first) * oh,
                        ow, kh, kw, sy, sx)
        return
    for p in prange(begin, end, schedule='static', use_threads_if=parallel):
        _grad_plane(gy + (p // c) * g_n + (p % c) * g_c, g_h, g_w,
                    indexes + p * oh * ow, gx + p * h * w, h, w, oh, ow,
                    overlapping, kh, kw, sy, sx, py, px)


def max_pooling_2d_grad(cnp.ndarray gy not None, cnp.ndarray indexes not None,
                        cnp.ndarray gx not None, int kh, int kw, int sy,
                        int sx, int py, int px):
    """Adds each ``gy`` onto the pixel of ``gx`` (zeros) that its index
    names in its window.

    ``gy`` is a float32 or float64 array of shape ``(n, c, oh, ow)``
    (copied first if it is not aligned) and ``indexes`` the C-contiguous
    intp array of its shape from :func:`max_pooling_2d`; ``gx`` (of gy's
    dtype) is C-contiguous and writable, of shape ``(n, c, h, w)``.

    Raises:
        ValueError: If the arrays are not of these dtypes, layouts and
            shapes or overlap in memory, or a window size or stride is not
            positive or a padding is negative.
    """
    if not cnp.PyArray_ISALIGNED(gy):
        gy = cnp.PyArray_NewCopy(gy, cnp.NPY_CORDER)  # (as the kernels read)
    _check_all('max_pooling_2d_grad', gx, 'gx', gy, 'gy', indexes, True)
    _check_windows('max_pooling_2d_grad', kh, kw, sy, sx, py, px)
    _check_apart('max_pooling_2d_grad', gx, gy, indexes)
    _run(True, gy, gx, indexes, kh, kw, sy, sx, py, px,
         gy.shape[2] * gy.shape[3] + gx.shape[2] * gx.shape[3])


cdef struct Call:
    # the arrays of a kernel call: src strided, dst and indexes C-contiguous
    const void* src
    const cnp.npy_intp* shape
    const cnp.npy_intp* strides
    void* dst
    Py_ssize_t* indexes
    Py_ssize_t d_h  # dst's planes
    Py_ssize_t d_w
    int kh, kw, sy, sx, py, px


cdef void _planes(bint grad, const Call* a, Py_ssize_t begin, Py_ssize_t end,
                  const real* src) noexcept nogil:
    # the planes begin..end - 1 (src: a.src, typed)
    if grad:
        _backward(src, a.shape, a.strides, <real*>a.dst, a.indexes, a.d_h,
                  a.d_w, a.kh, a.kw, a.sy, a.sx, a.py, a.px, begin, end)
    else:
        _forward(src, a.shape, a.strides, <real*>a.dst, a.indexes, a.d_h,
                 a.d_w, a.kh, a.kw, a.sy, a.sx, a.py, a.px, begin, end)


cdef int _run(bint grad, cnp.ndarray src, cnp.ndarray dst,
              cnp.ndarray indexes, int kh, int kw, int sy, int sx, int py,
              int px, Py_ssize_t work_per_plane) except -1:
    # The forward (the windows of the planes of src into dst and indexes)
    # or the gradient (src's added onto dst where indexes name), planes in
    # chunks.
    cdef Call a
    a.src = cnp.PyArray_DATA(src)
    a.shape = cnp.PyArray_DIMS(src)
    a.strides = cnp.PyArray_STRIDES(src)
    a.dst = cnp.PyArray_DATA(dst)
    a.indexes = <Py_ssize_t*>cnp.PyArray_DATA(indexes)
    a.d_h, a.d_w = dst.shape[2], dst.shape[3]
    a.kh, a.kw, a.sy, a.sx, a.py, a.px = kh, kw, sy, sx, py, px
    cdef bint single = cnp.PyArray_TYPE(src) == cnp.NPY_FLOAT32
    cdef Chunks todo = chunks(src.shape[0] * src.shape[1], work_per_plane,
                              cl_max_threads())
    while next_chunk(&todo):
        with nogil:
            if single:
                _planes(grad, &a, todo.begin, todo.end, <const float*>a.src)
            else:
                _planes(grad, &a, todo.begin, todo.end, <const double*>a.src)
    return 0
