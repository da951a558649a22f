/* Kernels of 2-D max pooling for the windows that lie inside the image,
 * along rows of unit stride: a block of rows x n windows (or one row of
 * them) per call, the forward and the gradient of disjoint windows.
 *
 * The forward takes the taps of a window in C order with the comparisons
 * of the one-by-one loop of pool_kernels.pyx (CL_POOL_TAKE, then
 * CL_POOL_NAN_INDEX), so values and indexes are the same bit for bit; only the bounds tests and the per-tap
 * branches are gone, and the loops over the windows are left for the
 * compiler to vectorise. The gradient adds each gy onto the one pixel its
 * index names, as that loop does. On x86-64 with GCC each is compiled for
 * AVX-512, AVX2 and the baseline, and the loader picks the one the CPU
 * runs (target_clones).
 */
#ifndef CHAINERLITE_POOL_KERNELS_H
#define CHAINERLITE_POOL_KERNELS_H

#include <stddef.h>

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && \
    defined(__linux__)
#define CL_POOL_CLONES \
    __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CL_POOL_CLONES
#endif

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
    CL_POOL_CLONES static void cl_pool_max2x2_##S(                         \
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
    CL_POOL_CLONES static void cl_pool_max_taps_##S(                       \
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
    CL_POOL_CLONES static void cl_pool_grad2x2_##S(                        \
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
    CL_POOL_CLONES static void cl_pool_grad_taps_##S(                      \
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

#endif
