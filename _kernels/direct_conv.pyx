# cython: boundscheck=False, wraparound=False
# build: openmp
# (kernels: the entry points make the arrays that the C below reads to fit)
"""Compiled direct convolutions of float32 images, stride 1, on the CPU.

The C kernels below multiply straight from the padded images, with no
column array: the forward (bias included) and the gradient of the
filters; the transposed convolution is a forward of flipped filters. With
few channels this beats im2col + BLAS, whose product then has a short side
that OpenBLAS runs far below the CPU's peak.

The entry points :func:`conv2d`, :func:`conv2d_transpose` and
:func:`conv2d_grad_weight` take the arrays and parameters of the
convolution as the convolution functions hold them, and compute or
decline: they return a new array, or None where the kernels do not apply,
and the caller keeps im2col + BLAS. They apply to float32 NumPy arrays,
images not empty, stride and dilation 1, one group, filters of at most
:data:`MAX_WEIGHTS` weights and rows of at most :data:`MAX_KW`, and only
where the CPU runs the AVX2/FMA kernels (checked once at import;
:func:`direct_conv_simd` tells): the plain C versions, the only ones off
x86-64, are slower than im2col + BLAS, and run only when ``portable=True``
asks for them (tests). The images are padded into a copy (no copy for a
padding of 0 on a C-contiguous array), which ``cache`` keeps from the
forward for the filter gradient.

The AVX2 versions share large work among OpenMP threads
(``OMP_NUM_THREADS``). The loops do the images (forward) or input channels
(filter gradient) in chunks, looking for Ctrl-C between them (see
``chunks.pxd``).
"""
cimport numpy as cnp
from libc.stdlib cimport free, malloc

from chainerlite._kernels.chunks cimport Chunks, chunks, cl_max_threads, next_chunk
from chainerlite._kernels.dtypes cimport float32, descr_of

import numpy

cnp.import_array()


cdef extern from * nogil:
    """
    /* Direct stride-1 convolutions of float32 images on the CPU.
     *
     * Included by direct_conv.pyx. Every kernel reads images that are already
     * padded (so no bounds tests), C-contiguous:
     *   xp  (n, cin, hp, wp)   padded input
     *   wt  (cin, kh, kw, cout) filters with the output channel innermost
     *   y   (n, cout, oh, ow)  output, oh = hp - kh + 1, ow = wp - kw + 1
     *
     * Two versions of each kernel: a portable one in plain C (vectorised by
     * the compiler for the baseline instruction set), and on x86-64 with GCC
     * or Clang one compiled for AVX2 + FMA, picked at run time when the CPU
     * has them. The wheel stays portable: nothing else is built for AVX2.
     * The AVX2 kernels share the batch (forward) or the input channels (filter
     * gradient) among OpenMP threads when `parallel` is set and the module is
     * built with OpenMP; the portable ones run on one thread.
     */

    #include <stddef.h>

    #include "dispatch.h"

    typedef ptrdiff_t cl_idx;

    /* ---------------------------------------------------------------- plain */

    static void cl_conv_forward_plain(const float *xp, const float *wt,
                                      const float *bias, float *y, cl_idx n,
                                      cl_idx cin, cl_idx hp, cl_idx wp,
                                      cl_idx cout, cl_idx kh, cl_idx kw) {
        cl_idx oh = hp - kh + 1, ow = wp - kw + 1;
        for (cl_idx b = 0; b < n; b++) {
            for (cl_idx co = 0; co < cout; co++) {
                for (cl_idx oy = 0; oy < oh; oy++) {
                    float *out = y + ((b * cout + co) * oh + oy) * ow;
                    float shift = bias ? bias[co] : 0.0f;
                    for (cl_idx ox = 0; ox < ow; ox++)
                        out[ox] = shift;
                    for (cl_idx ci = 0; ci < cin; ci++) {
                        for (cl_idx i = 0; i < kh; i++) {
                            const float *row =
                                xp + ((b * cin + ci) * hp + oy + i) * wp;
                            const float *w = wt + ((ci * kh + i) * kw) * cout + co;
                            for (cl_idx j = 0; j < kw; j++) {
                                float wv = w[j * cout];
                                const float *src = row + j;
                                for (cl_idx ox = 0; ox < ow; ox++)
                                    out[ox] += wv * src[ox];
                            }
                        }
                    }
                }
            }
        }
    }

    /* gw (cout, cin, kh, kw) = sum over b, oy, ox of
     * gy[b, co, oy, ox] * xp[b, ci, oy + i, ox + j], for the input channels
     * ci0 <= ci < ci1 (each entry is summed alone); acc: ow floats of
     * scratch (one partial sum per output column, so the inner loop has no
     * reduction and vectorises without reassociating). */
    static void cl_conv_grad_weight_plain(const float *xp, const float *gy,
                                          float *gw, float *acc, cl_idx n,
                                          cl_idx cin, cl_idx hp, cl_idx wp,
                                          cl_idx cout, cl_idx kh, cl_idx kw,
                                          cl_idx ci0, cl_idx ci1) {
        cl_idx oh = hp - kh + 1, ow = wp - kw + 1;
        for (cl_idx co = 0; co < cout; co++) {
            for (cl_idx ci = ci0; ci < ci1; ci++) {
                for (cl_idx i = 0; i < kh; i++) {
                    for (cl_idx j = 0; j < kw; j++) {
                        float total = 0.0f;
                        for (cl_idx ox = 0; ox < ow; ox++)
                            acc[ox] = 0.0f;
                        for (cl_idx b = 0; b < n; b++) {
                            for (cl_idx oy = 0; oy < oh; oy++) {
                                const float *g =
                                    gy + ((b * cout + co) * oh + oy) * ow;
                                const float *src =
                                    xp + ((b * cin + ci) * hp + oy + i) * wp + j;
                                for (cl_idx ox = 0; ox < ow; ox++)
                                    acc[ox] += g[ox] * src[ox];
                            }
                        }
                        for (cl_idx ox = 0; ox < ow; ox++)
                            total += acc[ox];
                        gw[((co * cin + ci) * kh + i) * kw + j] = total;
                    }
                }
            }
        }
    }

    /* ----------------------------------------------------------- AVX2 + FMA */

    #if CL_HAVE_AVX2
    /* lanes [0, count) on, the rest off */
    CL_AVX2_INLINE __m256i cl_lane_mask(cl_idx count) {
        const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)count), lanes);
    }

    /* One block of `nb` output channels at 8 output columns of `rows` (1 or
     * 2) output rows: acc[r * nb + k] += w[co0 + k] * row r, over every input
     * channel and tap. Two rows share each broadcast weight. `rows`, `nb` and
     * `full` are constants at each call, so that every version unrolls and
     * keeps its rows * nb sums in registers. */
    CL_AVX2_INLINE void cl_forward_block(const float *x0, const float *w0,
                                         cl_idx plane, cl_idx wp, cl_idx cin,
                                         cl_idx kh, cl_idx kw, cl_idx cout,
                                         const int rows, const int nb,
                                         const int full, __m256i mask,
                                         __m256 *acc) {
        for (cl_idx ci = 0; ci < cin; ci++) {
            for (cl_idx i = 0; i < kh; i++) {
                const float *row = x0 + ci * plane + i * wp;
                const float *w = w0 + ((ci * kh + i) * kw) * cout;
                for (cl_idx j = 0; j < kw; j++) {
                    __m256 v[2];
                    for (int r = 0; r < rows; r++)
                        v[r] = full ? _mm256_loadu_ps(row + r * wp + j)
                                    : _mm256_maskload_ps(row + r * wp + j, mask);
                    for (int k = 0; k < nb; k++) {
                        __m256 wk = _mm256_broadcast_ss(w + k);
                        for (int r = 0; r < rows; r++)
                            acc[r * nb + k] =
                                _mm256_fmadd_ps(wk, v[r], acc[r * nb + k]);
                    }
                    w += cout;
                }
            }
        }
    }

    /* output channels [co0, co0 + nb) at one tile of `rows` rows */
    CL_AVX2_INLINE void cl_forward_channels(const float *x0, const float *wt,
                                            const float *bias, float *out,
                                            cl_idx plane, cl_idx wp, cl_idx cin,
                                            cl_idx kh, cl_idx kw, cl_idx cout,
                                            cl_idx ow, cl_idx out_plane,
                                            cl_idx co0, const int rows,
                                            const int nb, const int full,
                                            __m256i mask) {
        __m256 acc[12];
        for (int r = 0; r < rows; r++)
            for (int k = 0; k < nb; k++)
                acc[r * nb + k] = _mm256_set1_ps(bias ? bias[co0 + k] : 0.0f);
        cl_forward_block(x0, wt + co0, plane, wp, cin, kh, kw, cout, rows, nb,
                         full, mask, acc);
        for (int r = 0; r < rows; r++) {
            for (int k = 0; k < nb; k++) {
                float *dst = out + (co0 + k) * out_plane + r * ow;
                if (full)
                    _mm256_storeu_ps(dst, acc[r * nb + k]);
                else
                    _mm256_maskstore_ps(dst, mask, acc[r * nb + k]);
            }
        }
    }

    /* every output channel at one tile: blocks of 12 / rows channels (12
     * sums in registers: enough independent FMA chains to cover the FMA
     * latency), then one block of the rest */
    CL_AVX2_INLINE void cl_forward_tile(const float *x0, const float *wt,
                                        const float *bias, float *out,
                                        cl_idx plane, cl_idx wp, cl_idx cin,
                                        cl_idx kh, cl_idx kw, cl_idx cout,
                                        cl_idx ow, cl_idx out_plane,
                                        const int rows, const int full,
                                        __m256i mask) {
        const int nb = 12 / rows;
        cl_idx co0 = 0;
        for (; co0 + nb <= cout; co0 += nb)
            cl_forward_channels(x0, wt, bias, out, plane, wp, cin, kh, kw, cout,
                                ow, out_plane, co0, rows, nb, full, mask);
    #define CL_REST(m)                                                          \
        case m:                                                                 \
            cl_forward_channels(x0, wt, bias, out, plane, wp, cin, kh, kw, cout, \
                                ow, out_plane, co0, rows, m, full, mask);       \
            break;
        switch (cout - co0) {
        CL_REST(1) CL_REST(2) CL_REST(3) CL_REST(4) CL_REST(5) CL_REST(6)
        CL_REST(7) CL_REST(8) CL_REST(9) CL_REST(10) CL_REST(11)
        default: break;
        }
    #undef CL_REST
    }

    /* one tile of `rows` rows at every output column */
    CL_AVX2_INLINE void cl_forward_rows(const float *x0, const float *wt,
                                        const float *bias, float *out,
                                        cl_idx plane, cl_idx wp, cl_idx cin,
                                        cl_idx kh, cl_idx kw, cl_idx cout,
                                        cl_idx ow, cl_idx out_plane,
                                        const int rows, __m256i mask) {
        cl_idx ox = 0;
        for (; ox + 8 <= ow; ox += 8)
            cl_forward_tile(x0 + ox, wt, bias, out + ox, plane, wp, cin, kh, kw,
                            cout, ow, out_plane, rows, 1, mask);
        if (ox < ow)
            cl_forward_tile(x0 + ox, wt, bias, out + ox, plane, wp, cin, kh, kw,
                            cout, ow, out_plane, rows, 0, mask);
    }

    CL_AVX2 static void cl_conv_forward_avx2(const float *xp, const float *wt,
                                             const float *bias, float *y,
                                             cl_idx n, cl_idx cin, cl_idx hp,
                                             cl_idx wp, cl_idx cout, cl_idx kh,
                                             cl_idx kw, int parallel) {
        cl_idx oh = hp - kh + 1, ow = wp - kw + 1;
        cl_idx plane = hp * wp, out_plane = oh * ow;
        __m256i mask = cl_lane_mask(ow % 8);
        (void)parallel;
    #pragma omp parallel for schedule(static) if (parallel)
        for (cl_idx b = 0; b < n; b++) {
            const float *x0 = xp + b * cin * plane;
            float *out = y + b * cout * out_plane;
            cl_idx oy = 0;
            for (; oy + 2 <= oh; oy += 2)
                cl_forward_rows(x0 + oy * wp, wt, bias, out + oy * ow, plane, wp,
                                cin, kh, kw, cout, ow, out_plane, 2, mask);
            if (oy < oh)
                cl_forward_rows(x0 + oy * wp, wt, bias, out + oy * ow, plane, wp,
                                cin, kh, kw, cout, ow, out_plane, 1, mask);
        }
    }

    CL_AVX2_INLINE float cl_hsum(__m256 v) {
        __m128 s = _mm_add_ps(_mm256_castps256_ps128(v),
                              _mm256_extractf128_ps(v, 1));
        s = _mm_add_ps(s, _mm_movehl_ps(s, s));
        s = _mm_add_ss(s, _mm_movehdup_ps(s));
        return _mm_cvtss_f32(s);
    }

    /* One block of `cb` output channels from co0 for input channel ci and
     * filter row i: sums[k * kw + j] += gy[b, co0 + k] * xp[b, ci] shifted by
     * (i, j), over the batch and the outputs. `cb` and `kw` are constants at
     * each call, so that the cb * kw sums stay in registers and are
     * independent chains of FMAs. */
    CL_AVX2_INLINE void cl_grad_weight_block(const float *xp, const float *gy,
                                             float *gw, cl_idx n, cl_idx cin,
                                             cl_idx hp, cl_idx wp, cl_idx cout,
                                             cl_idx kh, cl_idx co0, cl_idx ci,
                                             cl_idx i, const int cb,
                                             const int kw) {
        cl_idx oh = hp - kh + 1, ow = wp - kw + 1;
        __m256i mask = cl_lane_mask(ow % 8);
        __m256 sums[12];
        for (int k = 0; k < cb * kw; k++)
            sums[k] = _mm256_setzero_ps();
        for (cl_idx b = 0; b < n; b++) {
            for (cl_idx oy = 0; oy < oh; oy++) {
                const float *g = gy + ((b * cout + co0) * oh + oy) * ow;
                const float *src = xp + ((b * cin + ci) * hp + oy + i) * wp;
                for (cl_idx ox = 0; ox < ow; ox += 8) {
                    int full = ox + 8 <= ow;
                    __m256 v[8];
                    for (int j = 0; j < kw; j++)
                        v[j] = full ? _mm256_loadu_ps(src + ox + j)
                                    : _mm256_maskload_ps(src + ox + j, mask);
                    for (int k = 0; k < cb; k++) {
                        const float *gk = g + k * oh * ow + ox;
                        __m256 gv = full ? _mm256_loadu_ps(gk)
                                         : _mm256_maskload_ps(gk, mask);
                        for (int j = 0; j < kw; j++)
                            sums[k * kw + j] =
                                _mm256_fmadd_ps(gv, v[j], sums[k * kw + j]);
                    }
                }
            }
        }
        for (int k = 0; k < cb; k++)
            for (int j = 0; j < kw; j++)
                gw[(((co0 + k) * cin + ci) * kh + i) * kw + j] =
                    cl_hsum(sums[k * kw + j]);
    }

    /* all output channels for input channel ci, in blocks of cb then 1 */
    CL_AVX2_INLINE void cl_grad_weight_input(const float *xp, const float *gy,
                                             float *gw, cl_idx n, cl_idx cin,
                                             cl_idx hp, cl_idx wp, cl_idx cout,
                                             cl_idx kh, cl_idx ci, const int cb,
                                             const int kw) {
        for (cl_idx i = 0; i < kh; i++) {
            cl_idx co0 = 0;
            for (; co0 + cb <= cout; co0 += cb)
                cl_grad_weight_block(xp, gy, gw, n, cin, hp, wp, cout, kh, co0,
                                     ci, i, cb, kw);
            for (; co0 < cout; co0++)
                cl_grad_weight_block(xp, gy, gw, n, cin, hp, wp, cout, kh, co0,
                                     ci, i, 1, kw);
        }
    }

    /* As cl_conv_grad_weight_plain (acc unused); needs kw <= 8. The widths
     * are spelled out inside the loop, so that each call has constant block
     * sizes (an OpenMP body would otherwise see them as variables). */
    CL_AVX2 static void cl_conv_grad_weight_avx2(const float *xp,
                                                 const float *gy, float *gw,
                                                 float *acc, cl_idx n,
                                                 cl_idx cin, cl_idx hp,
                                                 cl_idx wp, cl_idx cout,
                                                 cl_idx kh, cl_idx kw,
                                                 cl_idx ci0, cl_idx ci1,
                                                 int parallel) {
        (void)acc;
        (void)parallel;
    #pragma omp parallel for schedule(static) if (parallel)
        for (cl_idx ci = ci0; ci < ci1; ci++) {
            switch (kw) {
            case 1: cl_grad_weight_input(xp, gy, gw, n, cin, hp, wp, cout, kh, ci, 8, 1); break;
            case 2: cl_grad_weight_input(xp, gy, gw, n, cin, hp, wp, cout, kh, ci, 6, 2); break;
            case 3: cl_grad_weight_input(xp, gy, gw, n, cin, hp, wp, cout, kh, ci, 4, 3); break;
            case 4: cl_grad_weight_input(xp, gy, gw, n, cin, hp, wp, cout, kh, ci, 3, 4); break;
            case 5: cl_grad_weight_input(xp, gy, gw, n, cin, hp, wp, cout, kh, ci, 2, 5); break;
            case 6: cl_grad_weight_input(xp, gy, gw, n, cin, hp, wp, cout, kh, ci, 2, 6); break;
            case 7: cl_grad_weight_input(xp, gy, gw, n, cin, hp, wp, cout, kh, ci, 1, 7); break;
            default: cl_grad_weight_input(xp, gy, gw, n, cin, hp, wp, cout, kh, ci, 1, 8); break;
            }
        }
    }
    #else
    /* no AVX2 version: the names stand for the portable kernels */
    #define cl_conv_forward_avx2(xp, wt, bias, y, n, cin, hp, wp, cout, kh, kw, \
                                 parallel)                                    \
        cl_conv_forward_plain(xp, wt, bias, y, n, cin, hp, wp, cout, kh, kw)
    #define cl_conv_grad_weight_avx2(xp, gy, gw, acc, n, cin, hp, wp, cout, kh, \
                                     kw, ci0, ci1, parallel)                   \
        cl_conv_grad_weight_plain(xp, gy, gw, acc, n, cin, hp, wp, cout, kh, kw, \
                                  ci0, ci1)
    #endif
    """
    void cl_conv_forward_plain(const float* xp, const float* wt,
                               const float* bias, float* y, Py_ssize_t n,
                               Py_ssize_t cin, Py_ssize_t hp, Py_ssize_t wp,
                               Py_ssize_t cout, Py_ssize_t kh, Py_ssize_t kw)
    void cl_conv_forward_avx2(const float* xp, const float* wt,
                              const float* bias, float* y, Py_ssize_t n,
                              Py_ssize_t cin, Py_ssize_t hp, Py_ssize_t wp,
                              Py_ssize_t cout, Py_ssize_t kh, Py_ssize_t kw,
                              int parallel)
    void cl_conv_grad_weight_plain(const float* xp, const float* gy,
                                   float* gw, float* acc, Py_ssize_t n,
                                   Py_ssize_t cin, Py_ssize_t hp,
                                   Py_ssize_t wp, Py_ssize_t cout,
                                   Py_ssize_t kh, Py_ssize_t kw,
                                   Py_ssize_t ci0, Py_ssize_t ci1)
    void cl_conv_grad_weight_avx2(const float* xp, const float* gy,
                                  float* gw, float* acc, Py_ssize_t n,
                                  Py_ssize_t cin, Py_ssize_t hp,
                                  Py_ssize_t wp, Py_ssize_t cout,
                                  Py_ssize_t kh, Py_ssize_t kw,
                                  Py_ssize_t ci0, Py_ssize_t ci1,
                                  int parallel)
    int cl_cpu_avx2_fma()

#: float32 sums in another order than BLAS's (and fused multiply-adds on
#: AVX2): within a relative 1e-5 of the float64 convolution.
PRECISION = 'rtol 1e-5 float32'

#: Most weights of the filters taken: the direct kernels beat im2col + BLAS
#: up to there (measured one thread, AVX2, 3x3: 16 -> 16 channels
#: 0.70-0.75x the time, 32 -> 32 0.85-0.90x, 64 -> 64 0.98-1.08x).
MAX_WEIGHTS = 16384
#: Widest filter row taken (the AVX2 gradient keeps a register per tap).
MAX_KW = 8

cdef bint _SIMD = cl_cpu_avx2_fma()

#: Multiply-adds below which one thread does the work.
cdef Py_ssize_t PARALLEL_MIN = 1 << 22
#: Multiply-adds in a unit of work of chunks.pxd (the vector kernels do
#: several a nanosecond).
cdef Py_ssize_t MACS_PER_UNIT = 8


def direct_conv_simd():
    """Whether the AVX2/FMA kernels run on this CPU (and build)."""
    return _SIMD


# -- when the kernels apply -----------------------------------------------


cdef inline bint _is_f32(a, int ndim):
    # a NumPy float32 array of ndim axes
    return (isinstance(a, cnp.ndarray) and descr_of(<cnp.ndarray>a) is float32()
            and (<cnp.ndarray>a).ndim == ndim)


cdef bint _takes(x, cout, cin, ksize, stride, pad,
                 dilate, groups, bint portable) except -1:
    # Whether the kernels convolve the images x by filters (cout, cin,
    # *ksize) with these parameters: float32 NumPy images, not empty, of cin
    # channels; stride and dilation 1, one group, padding >= 0; small
    # filters; and the AVX2 kernels (without them im2col + BLAS is faster)
    # unless portable.
    if not ((_SIMD or portable) and _is_f32(x, 4) and x.size
            and x.shape[1] == cin and stride == (1, 1) and dilate == (1, 1)
            and groups == 1 and isinstance(pad, tuple) and len(pad) == 2
            and isinstance(ksize, tuple) and len(ksize) == 2):
        return False
    kh, kw = ksize  # Python ints: the product cannot overflow
    return (pad[0] >= 0 and pad[1] >= 0 and kh >= 1 and 1 <= kw <= MAX_KW
            and cout * cin * kh * kw <= MAX_WEIGHTS)


cdef inline tuple _out_dims(x, ksize, pad):
    # (oh, ow) of the convolution: x padded by pad on each side, stride 1
    return (x.shape[2] + 2 * pad[0] - ksize[0] + 1,
            x.shape[3] + 2 * pad[1] - ksize[1] + 1)


cdef cnp.ndarray _block(a):
    # a as one aligned C-contiguous array (a itself when it is one)
    cdef cnp.ndarray b = numpy.ascontiguousarray(a)
    return b if cnp.PyArray_ISALIGNED(b) else b.copy()


cdef cnp.ndarray _padded(cnp.ndarray x, Py_ssize_t ph, Py_ssize_t pw):
    # x with ph rows and pw columns of zeros on each side, C-contiguous
    if ph == 0 and pw == 0:
        return _block(x)
    cdef Py_ssize_t h = x.shape[2], w = x.shape[3]
    cdef cnp.ndarray padded = numpy.zeros(
        (x.shape[0], x.shape[1], h + 2 * ph, w + 2 * pw), numpy.float32)
    padded[:, :, ph:ph + h, pw:pw + w] = x
    return padded


cdef cnp.ndarray _padded_kept(cnp.ndarray x, tuple pad, list cache):
    # _padded(x, *pad), kept in cache for the next call with the same x
    # (and taken from it only at the shape the loops will read)
    if (cache is not None and len(cache) == 3 and cache[0] is x
            and cache[1] == pad and _is_f32(cache[2], 4)
            and cache[2].shape == (x.shape[0], x.shape[1],
                                   x.shape[2] + 2 * pad[0],
                                   x.shape[3] + 2 * pad[1])):
        return cache[2]
    padded = _padded(x, pad[0], pad[1])
    if cache is not None:
        cache[:] = [x, pad, padded]
    return padded


# -- the entry points -----------------------------------------------------


def conv2d(x, W, b, stride, pad, dilate, groups, list cache=None,
           bint portable=False):
    """The convolution (cross-correlation) of the images ``x`` (n, c, h, w)
    by the filters ``W`` (c_O, c, kh, kw), padded by ``pad`` (ph, pw) on each
    side, plus the bias ``b`` (c_O,) if not None: a new float32 array (n,
    c_O, h + 2 ph - kh + 1, w + 2 pw - kw + 1), or None where the kernels do
    not apply (see the module). ``stride``, ``dilate`` (tuples) and
    ``groups`` only decide that. ``cache``, a list that the caller keeps for
    one convolution, holds the padded images for
    :func:`conv2d_grad_weight`; ``portable`` runs the plain C kernels."""
    if not (_is_f32(W, 4) and _takes(x, W.shape[0], W.shape[1], W.shape[2:],
                                     stride, pad, dilate, groups, portable)):
        return None
    cdef Py_ssize_t cout = W.shape[0]
    if b is not None and not (_is_f32(b, 1) and b.shape[0] == cout):
        return None
    oh, ow = _out_dims(x, W.shape[2:], pad)
    if oh < 1 or ow < 1:
        return None
    y = numpy.empty((x.shape[0], cout, oh, ow), numpy.float32)
    _forward(_padded_kept(x, pad, cache), _block(W.transpose(1, 2, 3, 0)),
             None if b is None else _block(b), y, portable)
    return y


def conv2d_transpose(x, W, dims, stride, pad, dilate, groups,
                     bint portable=False):
    """The transposed convolution of ``x`` (n, c, h, w) by ``W`` (c, c_O,
    kh, kw) to images of lengths ``dims`` (the gradient of :func:`conv2d`
    with respect to its input): a new float32 array (n, c_O, *dims), or None
    where the kernels do not apply (see the module; also where ``dims`` are
    not ``h + kh - 1 - 2 ph, w + kw - 1 - 2 pw`` or a padding is past
    ``k - 1``)."""
    if not (_is_f32(W, 4) and _takes(x, W.shape[1], W.shape[0], W.shape[2:],
                                     stride, pad, dilate, groups, portable)):
        return None
    # stride 1: the correlation of x padded by k - 1 - p with the flipped
    # filters, channels swapped
    full = (W.shape[2] - 1 - pad[0], W.shape[3] - 1 - pad[1])
    if (full[0] < 0 or full[1] < 0
            or dims != _out_dims(x, W.shape[2:], full)):
        return None
    y = numpy.empty((x.shape[0], W.shape[1]) + dims, numpy.float32)
    _forward(_padded(x, full[0], full[1]),
             _block(W[:, :, ::-1, ::-1].transpose(0, 2, 3, 1)), None, y,
             portable)
    return y


def conv2d_grad_weight(x, gy, ksize, stride, pad, dilate, groups,
                       list cache=None, bint portable=False):
    """The gradient of :func:`conv2d` with respect to its filters of lengths
    ``ksize`` (kh, kw), given the gradient ``gy`` of its output: a new
    float32 array (c_O, c, kh, kw), or None where the kernels do not apply
    (see the module). ``cache``: the list given to :func:`conv2d`, whose
    padded images are reused when ``x`` is the same array."""
    if not (_is_f32(gy, 4) and _is_f32(x, 4)
            and _takes(x, gy.shape[1], x.shape[1], ksize, stride, pad,
                       dilate, groups, portable)):
        return None
    if gy.shape != (x.shape[0], gy.shape[1]) + _out_dims(x, ksize, pad):
        return None
    gw = numpy.empty((gy.shape[1], x.shape[1]) + ksize, numpy.float32)
    _grad_weight(_padded_kept(x, pad, cache), _block(gy), gw, portable)
    return gw


# -- the loops, on arrays the entry points made to fit --------------------


cdef _forward(const float[:, :, :, ::1] xp, const float[:, :, :, ::1] wt,
              const float[::1] bias, float[:, :, :, ::1] y, bint portable):
    # y[b, o] = bias[o] + sum_c correlate(xp[b, c], W[o, c]), valid
    # positions only, wt = W.transpose(1, 2, 3, 0); bias may be None
    cdef Py_ssize_t cout = wt.shape[3]
    cdef const float* b = &bias[0] if bias is not None else NULL
    cdef bint parallel = y.size * wt.size >= PARALLEL_MIN
    if cout == 0:
        return
    # the images (of y.size / n outputs of cin * kh * kw terms), in chunks
    cdef Py_ssize_t macs = y.size // y.shape[0] * (wt.size // cout)
    cdef Chunks todo = chunks(y.shape[0], macs // MACS_PER_UNIT,
                              cl_max_threads())
    while next_chunk(&todo):
        with nogil:
            if _SIMD and not portable:
                cl_conv_forward_avx2(
                    &xp[todo.begin, 0, 0, 0], &wt[0, 0, 0, 0], b,
                    &y[todo.begin, 0, 0, 0], todo.end - todo.begin,
                    xp.shape[1], xp.shape[2], xp.shape[3], cout, wt.shape[1],
                    wt.shape[2], parallel)
            else:
                cl_conv_forward_plain(
                    &xp[todo.begin, 0, 0, 0], &wt[0, 0, 0, 0], b,
                    &y[todo.begin, 0, 0, 0], todo.end - todo.begin,
                    xp.shape[1], xp.shape[2], xp.shape[3], cout, wt.shape[1],
                    wt.shape[2])


cdef _grad_weight(const float[:, :, :, ::1] xp, const float[:, :, :, ::1] gy,
                  float[:, :, :, ::1] gw, bint portable):
    # gw[o, c, i, j] = sum_b sum_yx gy[b, o, y, x] * xp[b, c, y + i, x + j]
    cdef bint simd = _SIMD and not portable
    cdef float* acc = NULL
    cdef bint parallel = gy.size * (gw.size // max(gw.shape[0], 1)) >= PARALLEL_MIN
    if gw.shape[0] == 0:
        return
    if not simd:
        acc = <float*>malloc(gy.shape[3] * sizeof(float))
        if acc == NULL:
            raise MemoryError()
    # the input channels (each gy.size * kh * kw terms), in chunks
    cdef Py_ssize_t macs = gy.size * gw.shape[2] * gw.shape[3]
    cdef Chunks todo = chunks(gw.shape[1], macs // MACS_PER_UNIT,
                              cl_max_threads())
    try:
        while next_chunk(&todo):
            with nogil:
                if simd:
                    cl_conv_grad_weight_avx2(
                        &xp[0, 0, 0, 0], &gy[0, 0, 0, 0], &gw[0, 0, 0, 0],
                        acc, xp.shape[0], xp.shape[1], xp.shape[2],
                        xp.shape[3], gw.shape[0], gw.shape[2], gw.shape[3],
                        todo.begin, todo.end, parallel)
                else:
                    cl_conv_grad_weight_plain(
                        &xp[0, 0, 0, 0], &gy[0, 0, 0, 0], &gw[0, 0, 0, 0],
                        acc, xp.shape[0], xp.shape[1], xp.shape[2],
                        xp.shape[3], gw.shape[0], gw.shape[2], gw.shape[3],
                        todo.begin, todo.end)
    finally:
        free(acc)
