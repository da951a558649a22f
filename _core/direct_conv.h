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
#ifndef CHAINERLITE_DIRECT_CONV_H
#define CHAINERLITE_DIRECT_CONV_H

#include <stddef.h>

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define CL_HAVE_AVX2_PATH 1
#include <immintrin.h>
#else
#define CL_HAVE_AVX2_PATH 0
#endif

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

#if CL_HAVE_AVX2_PATH
#define CL_AVX2 __attribute__((target("avx2,fma")))
#define CL_AVX2_INLINE static inline __attribute__((always_inline, target("avx2,fma")))

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

static int cl_avx2_supported(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
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
static int cl_avx2_supported(void) { return 0; }
#endif

#endif
