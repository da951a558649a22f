# build: strict-fp openmp
# (no fused multiply-add, so that a row of equal values normalizes to exact
# zeros; sqrt need not set errno; OpenMP threads share the rows)
"""Softmax, log-softmax, layer, group and batch normalization on float32/float64 NumPy
arrays, forward and backward, one pass over the data each (the loops are
in the C below).

NumPy runs each of these as four to ten whole-array operations, each with
its own temporary; these loops take one row at a time (a row is the
softmax axis, a sample of layer normalization, a group of channels of a
sample in group normalization; a channel's block of a sample in batch
normalization, whose statistics merge the blocks' by Chan's formula) and do all of its
passes while it is in the cache: the statistics of the row, then its
output. Row sums accumulate in double in eight independent lanes (which
the compiler vectorises); ``exp`` is a polynomial of the argument reduced
by powers of two, vectorised with the loop.

Every entry point returns its result (new arrays), or None where it does
not apply, and the caller keeps NumPy: another dtype or array type, arrays
that are not aligned C-contiguous blocks of the same shape and dtype, a
softmax axis that is not the last (a trailing axis of length one aside),
an empty array, ``eps`` that is not a Python number. Rows are done in
chunks, and Ctrl-C is looked for between chunks (see ``chunks.pxd``).
OpenMP's threads share a chunk's rows (batch normalization's channels)
once it holds ``PARALLEL_MIN_WORK`` units of work; each row's (channel's)
result is computed as by one thread. The parameter gradients of layer and
group normalization add up fixed blocks of ``SUM_BLOCK`` rows, each in its
own sums, then the blocks' sums in order, so that they do not depend on the
thread count either.
"""
cimport numpy as cnp
from cython.parallel cimport prange

from chainerlite._kernels.chunks cimport (
    Chunks, chunks, cl_max_threads, cut as _cut, next_chunk,
    parts_of as _parts)
from chainerlite._kernels.dtypes cimport float32, float64, descr_of

import numpy

cnp.import_array()

#: Against the expressions computed in float64 (statistics, exp and log):
#: every output within 1e-6 (float32) or 1e-14 (float64) times the largest
#: magnitude of the exact output, or for the gradients, if larger, that of
#: the output gradient (times gamma's for the normalizations).
PRECISION = 'rtol 1e-6 float32, 1e-14 float64'

# rows of layer and group normalization whose parameter gradients are
# summed apart
cdef Py_ssize_t SUM_BLOCK = 64


cdef extern from * nogil:
    """
    #include <math.h>
    #include <stddef.h>
    #include <stdint.h>
    #include <string.h>

    #include "dispatch.h"

    /* exp of x <= 0 (or NaN): x = n ln2 + r with |r| <= ln2 / 2, exp(r) by
     * its Taylor polynomial (truncation below 1e-8 relative in float, 1e-17
     * in double), times 2^n made in the exponent bits. Below the smallest
     * normal result it gives 0; a NaN gives NaN. Branch-free, so that it
     * vectorises in the loops that call it. */
    static inline __attribute__((always_inline)) float cl_exp_f32(float x) {
        float xc = x < -87.0f ? -87.0f : (x > 0.0f ? 0.0f : x);
        float n = (xc * 1.44269504f + 12582912.0f) - 12582912.0f;
        float r = (xc - n * 0.693145752f) - n * 1.42860677e-06f;
        float p = 1.0f + r * (1.0f + r * (0.5f + r * (1.66666672e-01f
                  + r * (4.16666679e-02f + r * (8.33333377e-03f
                  + r * (1.38888892e-03f + r * 1.98412701e-04f))))));
        int32_t bits = ((int32_t)n + 127) << 23;
        float scale;
        memcpy(&scale, &bits, sizeof scale);
        float e = p * scale;
        e = x < -87.0f ? 0.0f : e;
        return x != x ? x : e;
    }

    static inline __attribute__((always_inline)) double cl_exp_f64(double x) {
        double xc = x < -708.0 ? -708.0 : (x > 0.0 ? 0.0 : x);
        double n = (xc * 1.4426950408889634 + 6755399441055744.0)
                   - 6755399441055744.0;
        double r = (xc - n * 6.93147180369123816490e-01)
                   - n * 1.90821492927058770002e-10;
        double p = 1.0 / 6227020800.0;
        p = 1.0 / 479001600.0 + r * p;
        p = 1.0 / 39916800.0 + r * p;
        p = 1.0 / 3628800.0 + r * p;
        p = 1.0 / 362880.0 + r * p;
        p = 1.0 / 40320.0 + r * p;
        p = 1.0 / 5040.0 + r * p;
        p = 1.0 / 720.0 + r * p;
        p = 1.0 / 120.0 + r * p;
        p = 1.0 / 24.0 + r * p;
        p = 1.0 / 6.0 + r * p;
        p = 0.5 + r * p;
        p = 1.0 + r * p;
        p = 1.0 + r * p;
        int64_t bits = ((int64_t)n + 1023) << 52;
        double scale;
        memcpy(&scale, &bits, sizeof scale);
        double e = p * scale;
        e = x < -708.0 ? 0.0 : e;
        return x != x ? x : e;
    }

    /* the sum over j < n of EXPR (of j), in double, in eight lanes */
    #define CL_SUM(OUT, n, EXPR)                                                \
        do {                                                                    \
            double acc_[8] = {0, 0, 0, 0, 0, 0, 0, 0};                          \
            ptrdiff_t j = 0;                                                    \
            for (; j + 8 <= (n); j += 8)                                        \
                for (int l_ = 0; l_ < 8; l_++) {                                \
                    ptrdiff_t k_ = j + l_;                                      \
                    { ptrdiff_t j = k_; acc_[l_] += (double)(EXPR); }           \
                }                                                               \
            double tail_ = 0;                                                   \
            for (; j < (n); j++)                                                \
                tail_ += (double)(EXPR);                                        \
            OUT = ((acc_[0] + acc_[4]) + (acc_[1] + acc_[5]))                   \
                  + ((acc_[2] + acc_[6]) + (acc_[3] + acc_[7])) + tail_;        \
        } while (0)

    #define CL_NORM_LOOPS(T, SUFFIX)                                            \
    /* softmax (or log-softmax) of rows [r0, r1) of length n */                 \
    CL_CLONES static void cl_softmax_##SUFFIX(                                  \
        const T *x, T *y, ptrdiff_t r0, ptrdiff_t r1, ptrdiff_t n, int take_log) {   \
        for (ptrdiff_t r = r0; r < r1; r++) {                                   \
            const T *xr = x + r * n;                                            \
            T *yr = y + r * n;                                                  \
            T m8[8];                                                            \
            for (int l = 0; l < 8; l++) m8[l] = xr[0];                          \
            ptrdiff_t j = 0;                                                    \
            for (; j + 8 <= n; j += 8)                                          \
                for (int l = 0; l < 8; l++)                                     \
                    m8[l] = xr[j + l] > m8[l] ? xr[j + l] : m8[l];              \
            T m = m8[0];                                                        \
            for (int l = 1; l < 8; l++) m = m8[l] > m ? m8[l] : m;              \
            for (; j < n; j++) m = xr[j] > m ? xr[j] : m;                       \
            for (ptrdiff_t j = 0; j < n; j++)                                   \
                yr[j] = cl_exp_##SUFFIX(xr[j] - m);                             \
            double s;                                                           \
            CL_SUM(s, n, yr[j]);                                                \
            if (take_log) {                                                     \
                T ls = (T)log(s);                                               \
                for (ptrdiff_t j = 0; j < n; j++)                               \
                    yr[j] = (xr[j] - m) - ls;                                   \
            } else {                                                            \
                T inv = (T)(1.0 / s);                                           \
                for (ptrdiff_t j = 0; j < n; j++)                               \
                    yr[j] = yr[j] * inv;                                        \
            }                                                                   \
        }                                                                       \
    }                                                                           \
    /* gx = y (gy - sum(y gy)) or, for log-softmax, gy - exp(y) sum(gy) */      \
    CL_CLONES static void cl_softmax_grad_##SUFFIX(                             \
        const T *y, const T *gy, T *gx, ptrdiff_t r0, ptrdiff_t r1,             \
        ptrdiff_t n, int take_log) {                                                 \
        for (ptrdiff_t r = r0; r < r1; r++) {                                   \
            const T *yr = y + r * n, *gr = gy + r * n;                          \
            T *out = gx + r * n;                                                \
            double s;                                                           \
            if (take_log) {                                                          \
                CL_SUM(s, n, gr[j]);                                            \
                T t = (T)s;                                                     \
                for (ptrdiff_t j = 0; j < n; j++)                               \
                    out[j] = gr[j] - cl_exp_##SUFFIX(yr[j]) * t;                \
            } else {                                                            \
                CL_SUM(s, n, yr[j] * gr[j]);                                    \
                T t = (T)s;                                                     \
                for (ptrdiff_t j = 0; j < n; j++)                               \
                    out[j] = yr[j] * (gr[j] - t);                               \
            }                                                                   \
        }                                                                       \
    }                                                                           \
    /* the mean and 1 / sqrt(biased variance + eps) of a row */                 \
    static inline __attribute__((always_inline)) void cl_row_stats_##SUFFIX(   \
        const T *xr, ptrdiff_t n, double eps, T *mean, T *inv_std) {            \
        double s, v;                                                            \
        CL_SUM(s, n, xr[j]);                                                    \
        double mu = s / n;                                                      \
        CL_SUM(v, n, (xr[j] - mu) * (xr[j] - mu));                              \
        *mean = (T)mu;                                                          \
        *inv_std = (T)(1.0 / sqrt(v / n + eps));                                \
    }                                                                           \
    /* layer normalization of rows [r0, r1) of length n */                      \
    CL_CLONES static void cl_layer_norm_##SUFFIX(                               \
        const T *x, const T *gamma, const T *beta, T *y, ptrdiff_t r0,          \
        ptrdiff_t r1, ptrdiff_t n, double eps) {                                \
        for (ptrdiff_t r = r0; r < r1; r++) {                                   \
            const T *xr = x + r * n;                                            \
            T *yr = y + r * n;                                                  \
            T mean, inv;                                                        \
            cl_row_stats_##SUFFIX(xr, n, eps, &mean, &inv);                     \
            for (ptrdiff_t j = 0; j < n; j++)                                   \
                yr[j] = (xr[j] - mean) * inv * gamma[j] + beta[j];              \
        }                                                                       \
    }                                                                           \
    /* its gradients: gx of rows [r0, r1), and their terms of ggamma and       \
     * gbeta added into the double sums gg and gb */                            \
    CL_CLONES static void cl_layer_norm_grad_##SUFFIX(                          \
        const T *x, const T *gamma, const T *gy, T *gx, double *gg,             \
        double *gb, ptrdiff_t r0, ptrdiff_t r1, ptrdiff_t n, double eps) {      \
        for (ptrdiff_t r = r0; r < r1; r++) {                                   \
            const T *xr = x + r * n, *gr = gy + r * n;                          \
            T *out = gx + r * n;                                                \
            T mean, inv;                                                        \
            cl_row_stats_##SUFFIX(xr, n, eps, &mean, &inv);                     \
            double sg, sgx;                                                     \
            CL_SUM(sg, n, gr[j] * gamma[j]);                                    \
            CL_SUM(sgx, n, gr[j] * gamma[j] * ((xr[j] - mean) * inv));          \
            T mg = (T)(sg / n), mgx = (T)(sgx / n);                             \
            for (ptrdiff_t j = 0; j < n; j++) {                                 \
                T xhat = (xr[j] - mean) * inv;                                  \
                out[j] = inv * (gr[j] * gamma[j] - mg - xhat * mgx);            \
                gg[j] += (double)(gr[j] * xhat);                                \
                gb[j] += (double)gr[j];                                         \
            }                                                                   \
        }                                                                       \
    }

    #define CL_GROUP_LOOPS(T, SUFFIX)                                           \
    /* group normalization of rows [r0, r1) (sample n, group g: row n G + g) \
     * of cg channels of s elements; gamma and beta per channel */             \
    CL_CLONES static void cl_group_norm_##SUFFIX(                               \
        const T *x, const T *gamma, const T *beta, T *y, ptrdiff_t r0,          \
        ptrdiff_t r1, ptrdiff_t groups, ptrdiff_t cg, ptrdiff_t s,              \
        double eps) {                                                           \
        ptrdiff_t n = cg * s;                                                   \
        for (ptrdiff_t r = r0; r < r1; r++) {                                   \
            const T *xr = x + r * n;                                            \
            T *yr = y + r * n;                                                  \
            T mean, inv;                                                        \
            cl_row_stats_##SUFFIX(xr, n, eps, &mean, &inv);                     \
            for (ptrdiff_t k = 0; k < cg; k++) {                                \
                ptrdiff_t c = (r % groups) * cg + k;                            \
                T scale = inv * gamma[c], shift = beta[c];                      \
                for (ptrdiff_t j = k * s; j < (k + 1) * s; j++)                 \
                    yr[j] = (xr[j] - mean) * scale + shift;                     \
            }                                                                   \
        }                                                                       \
    }                                                                           \
    /* its gradients: gx of the rows, their terms of ggamma and gbeta added   \
     * into the double sums gg and gb */                                        \
    CL_CLONES static void cl_group_norm_grad_##SUFFIX(                          \
        const T *x, const T *gamma, const T *gy, T *gx, double *gg,             \
        double *gb, ptrdiff_t r0, ptrdiff_t r1, ptrdiff_t groups,               \
        ptrdiff_t cg, ptrdiff_t s, double eps) {                                \
        ptrdiff_t n = cg * s;                                                   \
        for (ptrdiff_t r = r0; r < r1; r++) {                                   \
            const T *xr = x + r * n, *gr = gy + r * n;                          \
            T *out = gx + r * n;                                                \
            T mean, inv;                                                        \
            cl_row_stats_##SUFFIX(xr, n, eps, &mean, &inv);                     \
            double sg = 0, sgx = 0;                                             \
            for (ptrdiff_t k = 0; k < cg; k++) {                                \
                ptrdiff_t c = (r % groups) * cg + k;                            \
                const T *xk = xr + k * s, *gk = gr + k * s;                     \
                double a, b;                                                    \
                CL_SUM(a, s, gk[j]);                                            \
                CL_SUM(b, s, gk[j] * ((xk[j] - mean) * inv));                   \
                gb[c] += a;                                                     \
                gg[c] += b;                                                     \
                sg += a * gamma[c];                                             \
                sgx += b * gamma[c];                                            \
            }                                                                   \
            T mg = (T)(sg / n), mgx = (T)(sgx / n);                             \
            for (ptrdiff_t k = 0; k < cg; k++) {                                \
                T gm = gamma[(r % groups) * cg + k];                            \
                for (ptrdiff_t j = k * s; j < (k + 1) * s; j++) {               \
                    T xhat = (xr[j] - mean) * inv;                              \
                    out[j] = inv * (gr[j] * gm - mg - xhat * mgx);              \
                }                                                               \
            }                                                                   \
        }                                                                       \
    }

    #define CL_BATCH_LOOPS(T, SUFFIX)                                           \
    /* batch normalization's statistics of x (n, c, s) over n and s: the      \
     * mean and biased variance of each channel, each block of s elements    \
     * read once (its own mean and squared deviations, in the cache, merged  \
     * into the channel's by Chan's formula) */                               \
    CL_CLONES static void cl_batch_stats_##SUFFIX(                              \
        const T *x, ptrdiff_t n, ptrdiff_t c, ptrdiff_t s, ptrdiff_t c0,        \
        ptrdiff_t c1, double *mean, double *var) {                              \
        for (ptrdiff_t k = c0; k < c1; k++) {                                   \
            double mu = 0, m2 = 0;                                              \
            for (ptrdiff_t i = 0; i < n; i++) {                                 \
                const T *b = x + (i * c + k) * s;                               \
                double bs, bm2;                                                 \
                CL_SUM(bs, s, b[j]);                                            \
                double bmu = bs / s;                                            \
                CL_SUM(bm2, s, (b[j] - bmu) * (b[j] - bmu));                    \
                double delta = bmu - mu, before = (double)i * s;                \
                double w = (double)s / (before + s);                            \
                mu += delta * w;                                                \
                m2 += bm2 + delta * delta * before * w;                         \
            }                                                                   \
            mean[k] = mu;                                                       \
            var[k] = m2 / ((double)n * s);                                      \
        }                                                                       \
    }                                                                           \
    /* y = (x - mean) inv_std gamma + beta for channels [c0, c1) */            \
    CL_CLONES static void cl_batch_apply_##SUFFIX(                              \
        const T *x, T *y, ptrdiff_t n, ptrdiff_t c, ptrdiff_t s, ptrdiff_t c0,  \
        ptrdiff_t c1, const double *mean, const double *var, double eps,        \
        const T *gamma, const T *beta) {                                        \
        for (ptrdiff_t k = c0; k < c1; k++) {                                   \
            T mu = (T)mean[k], scale = (T)(1.0 / sqrt(var[k] + eps)) * gamma[k];\
            T shift = beta[k];                                                  \
            for (ptrdiff_t i = 0; i < n; i++) {                                 \
                const T *b = x + (i * c + k) * s;                               \
                T *out = y + (i * c + k) * s;                                   \
                for (ptrdiff_t j = 0; j < s; j++)                               \
                    out[j] = (b[j] - mu) * scale + shift;                       \
            }                                                                   \
        }                                                                       \
    }                                                                           \
    /* its gradients for channels [c0, c1): gx, and ggamma, gbeta (double) */  \
    CL_CLONES static void cl_batch_grad_##SUFFIX(                               \
        const T *x, const T *gy, T *gx, ptrdiff_t n, ptrdiff_t c, ptrdiff_t s,  \
        ptrdiff_t c0, ptrdiff_t c1, const double *mean, const double *var,      \
        double eps, const T *gamma, double *gg, double *gb) {                   \
        for (ptrdiff_t k = c0; k < c1; k++) {                                   \
            T mu = (T)mean[k], inv = (T)(1.0 / sqrt(var[k] + eps));             \
            double sg = 0, sgx = 0;                                             \
            for (ptrdiff_t i = 0; i < n; i++) {                                 \
                const T *b = x + (i * c + k) * s, *g = gy + (i * c + k) * s;    \
                double a, d;                                                    \
                CL_SUM(a, s, g[j]);                                             \
                CL_SUM(d, s, g[j] * ((b[j] - mu) * inv));                       \
                sg += a;                                                        \
                sgx += d;                                                       \
            }                                                                   \
            gg[k] = sgx;                                                        \
            gb[k] = sg;                                                         \
            double m = (double)n * s;                                           \
            T mg = (T)(sg / m), mgx = (T)(sgx / m), scale = gamma[k] * inv;     \
            for (ptrdiff_t i = 0; i < n; i++) {                                 \
                const T *b = x + (i * c + k) * s, *g = gy + (i * c + k) * s;    \
                T *out = gx + (i * c + k) * s;                                  \
                for (ptrdiff_t j = 0; j < s; j++)                               \
                    out[j] = scale * (g[j] - mg - ((b[j] - mu) * inv) * mgx);   \
            }                                                                   \
        }                                                                       \
    }                                                                           \
    /* fixed batch normalization's gradient for channels [c0, c1): gx = gy   \
     * scale, and the sums of gy and of gy (x - mean) (double) */              \
    CL_CLONES static void cl_batch_fixed_grad_##SUFFIX(                         \
        const T *x, const T *gy, T *gx, ptrdiff_t n, ptrdiff_t c, ptrdiff_t s,  \
        ptrdiff_t c0, ptrdiff_t c1, const double *mean, const double *scale,    \
        double *sgy, double *sgxc) {                                            \
        for (ptrdiff_t k = c0; k < c1; k++) {                                   \
            T mu = (T)mean[k], sc = (T)scale[k];                                \
            double sg = 0, sgx = 0;                                             \
            for (ptrdiff_t i = 0; i < n; i++) {                                 \
                const T *b = x + (i * c + k) * s, *g = gy + (i * c + k) * s;    \
                T *out = gx + (i * c + k) * s;                                  \
                double a, d;                                                    \
                CL_SUM(a, s, g[j]);                                             \
                CL_SUM(d, s, g[j] * (b[j] - mu));                               \
                for (ptrdiff_t j = 0; j < s; j++)                               \
                    out[j] = g[j] * sc;                                         \
                sg += a;                                                        \
                sgx += d;                                                       \
            }                                                                   \
            sgy[k] = sg;                                                        \
            sgxc[k] = sgx;                                                      \
        }                                                                       \
    }

    CL_NORM_LOOPS(float, f32)
    CL_NORM_LOOPS(double, f64)
    CL_GROUP_LOOPS(float, f32)
    CL_GROUP_LOOPS(double, f64)
    CL_BATCH_LOOPS(float, f32)
    CL_BATCH_LOOPS(double, f64)
    """
    void cl_softmax_f32(const float* x, float* y, Py_ssize_t r0,
                        Py_ssize_t r1, Py_ssize_t n, int log)
    void cl_softmax_f64(const double* x, double* y, Py_ssize_t r0,
                        Py_ssize_t r1, Py_ssize_t n, int log)
    void cl_softmax_grad_f32(const float* y, const float* gy, float* gx,
                             Py_ssize_t r0, Py_ssize_t r1, Py_ssize_t n,
                             int log)
    void cl_softmax_grad_f64(const double* y, const double* gy, double* gx,
                             Py_ssize_t r0, Py_ssize_t r1, Py_ssize_t n,
                             int log)
    void cl_layer_norm_f32(const float* x, const float* gamma,
                           const float* beta, float* y, Py_ssize_t r0,
                           Py_ssize_t r1, Py_ssize_t n, double eps)
    void cl_layer_norm_f64(const double* x, const double* gamma,
                           const double* beta, double* y, Py_ssize_t r0,
                           Py_ssize_t r1, Py_ssize_t n, double eps)
    void cl_layer_norm_grad_f32(const float* x, const float* gamma,
                                const float* gy, float* gx, double* gg,
                                double* gb, Py_ssize_t r0, Py_ssize_t r1,
                                Py_ssize_t n, double eps)
    void cl_layer_norm_grad_f64(const double* x, const double* gamma,
                                const double* gy, double* gx, double* gg,
                                double* gb, Py_ssize_t r0, Py_ssize_t r1,
                                Py_ssize_t n, double eps)
    void cl_group_norm_f32(const float* x, const float* gamma,
                           const float* beta, float* y, Py_ssize_t r0,
                           Py_ssize_t r1, Py_ssize_t groups, Py_ssize_t cg,
                           Py_ssize_t s, double eps)
    void cl_group_norm_f64(const double* x, const double* gamma,
                           const double* beta, double* y, Py_ssize_t r0,
                           Py_ssize_t r1, Py_ssize_t groups, Py_ssize_t cg,
                           Py_ssize_t s, double eps)
    void cl_group_norm_grad_f32(const float* x, const float* gamma,
                                const float* gy, float* gx, double* gg,
                                double* gb, Py_ssize_t r0, Py_ssize_t r1,
                                Py_ssize_t groups, Py_ssize_t cg,
                                Py_ssize_t s, double eps)
    void cl_group_norm_grad_f64(const double* x, const double* gamma,
                                const double* gy, double* gx, double* gg,
                                double* gb, Py_ssize_t r0, Py_ssize_t r1,
                                Py_ssize_t groups, Py_ssize_t cg,
                                Py_ssize_t s, double eps)

    void cl_batch_stats_f32(const float* x, Py_ssize_t n, Py_ssize_t c,
                            Py_ssize_t s, Py_ssize_t c0, Py_ssize_t c1,
                            double* mean, double* var)
    void cl_batch_stats_f64(const double* x, Py_ssize_t n, Py_ssize_t c,
                            Py_ssize_t s, Py_ssize_t c0, Py_ssize_t c1,
                            double* mean, double* var)
    void cl_batch_apply_f32(const float* x, float* y, Py_ssize_t n,
                            Py_ssize_t c, Py_ssize_t s, Py_ssize_t c0,
                            Py_ssize_t c1, const double* mean,
                            const double* var, double eps, const float* gamma,
                            const float* beta)
    void cl_batch_apply_f64(const double* x, double* y, Py_ssize_t n,
                            Py_ssize_t c, Py_ssize_t s, Py_ssize_t c0,
                            Py_ssize_t c1, const double* mean,
                            const double* var, double eps,
                            const double* gamma, const double* beta)
    void cl_batch_grad_f32(const float* x, const float* gy, float* gx,
                           Py_ssize_t n, Py_ssize_t c, Py_ssize_t s,
                           Py_ssize_t c0, Py_ssize_t c1, const double* mean,
                           const double* var, double eps, const float* gamma,
                           double* gg, double* gb)
    void cl_batch_grad_f64(const double* x, const double* gy, double* gx,
                           Py_ssize_t n, Py_ssize_t c, Py_ssize_t s,
                           Py_ssize_t c0, Py_ssize_t c1, const double* mean,
                           const double* var, double eps,
                           const double* gamma, double* gg, double* gb)
    void cl_batch_fixed_grad_f32(const float* x, const float* gy, float* gx,
                                 Py_ssize_t n, Py_ssize_t c, Py_ssize_t s,
                                 Py_ssize_t c0, Py_ssize_t c1,
                                 const double* mean, const double* scale,
                                 double* sgy, double* sgxc)
    void cl_batch_fixed_grad_f64(const double* x, const double* gy,
                                 double* gx, Py_ssize_t n, Py_ssize_t c,
                                 Py_ssize_t s, Py_ssize_t c0, Py_ssize_t c1,
                                 const double* mean, const double* scale,
                                 double* sgy, double* sgxc)


cdef bint _plain(object a, object like):
    # an aligned C-contiguous ndarray of like's dtype (float32/float64)
    # and, where like is an array, shape
    if type(a) is not cnp.ndarray:
        return False
    cdef cnp.ndarray arr = <cnp.ndarray>a
    if not (cnp.PyArray_IS_C_CONTIGUOUS(arr) and cnp.PyArray_ISALIGNED(arr)):
        return False
    if like is None:
        return descr_of(arr) is float32() or descr_of(arr) is float64()
    return (descr_of(arr) is descr_of(<cnp.ndarray>like)
            and cnp.PyArray_SAMESHAPE(arr, <cnp.ndarray>like))


cdef Py_ssize_t _row_length(cnp.ndarray x, object axis):
    # the length of the softmax axis where it is the last one (trailing
    # axes of length one aside) and the array is not empty, else 0
    cdef int ndim = cnp.PyArray_NDIM(x)
    if type(axis) is not int or not -ndim <= axis < ndim:
        return 0
    cdef int a = axis % ndim, k
    for k in range(a + 1, ndim):
        if x.shape[k] != 1:
            return 0
    if cnp.PyArray_SIZE(x) == 0:
        return 0
    return x.shape[a]


def softmax(x, axis, bint log):
    """Softmax (or log-softmax where ``log``) of ``x`` along ``axis``: a
    new array, or None where it declines."""
    if not _plain(x, None):
        return None
    cdef cnp.ndarray a = <cnp.ndarray>x
    cdef Py_ssize_t n = _row_length(a, axis)
    if n == 0:
        return None
    cdef cnp.ndarray y = numpy.empty_like(a)
    cdef bint single = descr_of(a) is float32()
    cdef void* xd = cnp.PyArray_DATA(a)
    cdef void* yd = cnp.PyArray_DATA(y)
    # a row: about 2 units of work an element (see chunks.pxd)
    cdef int threads = cl_max_threads(), parts
    cdef Py_ssize_t t, b, e
    cdef Chunks todo = chunks(cnp.PyArray_SIZE(a) // n, 2 * n, threads)
    while next_chunk(&todo):
        parts = _parts(todo.end - todo.begin, 2 * n, threads)
        with nogil:
            for t in prange(parts, schedule='static', num_threads=parts,
                            use_threads_if=parts > 1):
                b = _cut(todo.begin, todo.end, parts, t)
                e = _cut(todo.begin, todo.end, parts, t + 1)
                if single:
                    cl_softmax_f32(<const float*>xd, <float*>yd, b,
                                   e, n, log)
                else:
                    cl_softmax_f64(<const double*>xd, <double*>yd, b,
                                   e, n, log)
    return y


def softmax_grad(y, gy, axis, bint log):
    """The gradient of :func:`softmax` from its output ``y`` and the output
    gradient ``gy``: a new array, or None where it declines."""
    if not (_plain(y, None) and _plain(gy, y)):
        return None
    cdef cnp.ndarray a = <cnp.ndarray>y
    cdef Py_ssize_t n = _row_length(a, axis)
    if n == 0:
        return None
    cdef cnp.ndarray gx = numpy.empty_like(a)
    cdef bint single = descr_of(a) is float32()
    cdef void* yd = cnp.PyArray_DATA(a)
    cdef void* gyd = cnp.PyArray_DATA(<cnp.ndarray>gy)
    cdef void* gxd = cnp.PyArray_DATA(gx)
    cdef int threads = cl_max_threads(), parts
    cdef Py_ssize_t t, b, e
    cdef Chunks todo = chunks(cnp.PyArray_SIZE(a) // n, 2 * n, threads)
    while next_chunk(&todo):
        parts = _parts(todo.end - todo.begin, 2 * n, threads)
        with nogil:
            for t in prange(parts, schedule='static', num_threads=parts,
                            use_threads_if=parts > 1):
                b = _cut(todo.begin, todo.end, parts, t)
                e = _cut(todo.begin, todo.end, parts, t + 1)
                if single:
                    cl_softmax_grad_f32(<const float*>yd, <const float*>gyd,
                                        <float*>gxd, b, e, n, log)
                else:
                    cl_softmax_grad_f64(<const double*>yd, <const double*>gyd,
                                        <double*>gxd, b, e, n,
                                        log)
    return gx


cdef bint _layer_norm_args(object x, object gamma, object other, object eps):
    # x a non-empty 2-D (rows, n) float array, gamma and other (n,) of
    # its dtype, eps a Python number
    if not (_plain(x, None) and type(gamma) is cnp.ndarray
            and type(other) is cnp.ndarray):
        return False
    cdef cnp.ndarray a = <cnp.ndarray>x
    if cnp.PyArray_NDIM(a) != 2 or cnp.PyArray_SIZE(a) == 0:
        return False
    for v in (gamma, other):
        if not (cnp.PyArray_NDIM(<cnp.ndarray>v) == 1
                and (<cnp.ndarray>v).shape[0] == a.shape[1]
                and _plain(v, v) and descr_of(<cnp.ndarray>v) is descr_of(a)):
            return False
    return type(eps) is float or type(eps) is int


def layer_norm(x, gamma, beta, eps):
    """Layer normalization of the rows of the 2-D ``x``: a new array, or
    None where it declines."""
    if not _layer_norm_args(x, gamma, beta, eps):
        return None
    cdef cnp.ndarray a = <cnp.ndarray>x
    cdef Py_ssize_t rows = a.shape[0], n = a.shape[1]
    cdef double c_eps = eps
    cdef cnp.ndarray y = numpy.empty_like(a)
    cdef bint single = descr_of(a) is float32()
    cdef void* xd = cnp.PyArray_DATA(a)
    cdef void* gd = cnp.PyArray_DATA(<cnp.ndarray>gamma)
    cdef void* bd = cnp.PyArray_DATA(<cnp.ndarray>beta)
    cdef void* yd = cnp.PyArray_DATA(y)
    cdef int threads = cl_max_threads(), parts
    cdef Py_ssize_t t, b, e
    cdef Chunks todo = chunks(rows, 2 * n, threads)
    while next_chunk(&todo):
        parts = _parts(todo.end - todo.begin, 2 * n, threads)
        with nogil:
            for t in prange(parts, schedule='static', num_threads=parts,
                            use_threads_if=parts > 1):
                b = _cut(todo.begin, todo.end, parts, t)
                e = _cut(todo.begin, todo.end, parts, t + 1)
                if single:
                    cl_layer_norm_f32(<const float*>xd, <const float*>gd,
                                      <const float*>bd, <float*>yd, b,
                                      e, n, c_eps)
                else:
                    cl_layer_norm_f64(<const double*>xd, <const double*>gd,
                                      <const double*>bd, <double*>yd, b,
                                      e, n, c_eps)
    return y


def layer_norm_grad(x, gamma, gy, eps):
    """The gradients ``(gx, ggamma, gbeta)`` of :func:`layer_norm` from its
    input ``x``, ``gamma`` and the output gradient ``gy``, or None where it
    declines."""
    if not (_layer_norm_args(x, gamma, gamma, eps) and _plain(gy, x)):
        return None
    cdef cnp.ndarray a = <cnp.ndarray>x
    cdef Py_ssize_t rows = a.shape[0], n = a.shape[1]
    cdef double c_eps = eps
    cdef cnp.ndarray gx = numpy.empty_like(a)
    cdef Py_ssize_t blocks = (rows + SUM_BLOCK - 1) // SUM_BLOCK
    cdef cnp.ndarray gg = numpy.zeros((blocks, n), numpy.float64)
    cdef cnp.ndarray gb = numpy.zeros((blocks, n), numpy.float64)
    cdef bint single = descr_of(a) is float32()
    cdef void* xd = cnp.PyArray_DATA(a)
    cdef void* gmd = cnp.PyArray_DATA(<cnp.ndarray>gamma)
    cdef void* gyd = cnp.PyArray_DATA(<cnp.ndarray>gy)
    cdef void* gxd = cnp.PyArray_DATA(gx)
    cdef double* ggd = <double*>cnp.PyArray_DATA(gg)
    cdef double* gbd = <double*>cnp.PyArray_DATA(gb)
    cdef int threads = cl_max_threads(), parts
    cdef Py_ssize_t t, k, b, e
    # items: blocks of SUM_BLOCK rows, each summing into its own row of gg, gb
    cdef Chunks todo = chunks(blocks, 4 * n * SUM_BLOCK, threads)
    while next_chunk(&todo):
        parts = _parts(todo.end - todo.begin, 4 * n * SUM_BLOCK, threads)
        with nogil:
            for t in prange(parts, schedule='static', num_threads=parts,
                            use_threads_if=parts > 1):
                for k in range(_cut(todo.begin, todo.end, parts, t),
                               _cut(todo.begin, todo.end, parts, t + 1)):
                    b = k * SUM_BLOCK
                    e = b + SUM_BLOCK if b + SUM_BLOCK < rows else rows
                    if single:
                        cl_layer_norm_grad_f32(
                            <const float*>xd, <const float*>gmd,
                            <const float*>gyd, <float*>gxd, ggd + k * n,
                            gbd + k * n, b, e, n, c_eps)
                    else:
                        cl_layer_norm_grad_f64(
                            <const double*>xd, <const double*>gmd,
                            <const double*>gyd, <double*>gxd, ggd + k * n,
                            gbd + k * n, b, e, n, c_eps)
    return gx, gg.sum(axis=0).astype(a.dtype), gb.sum(axis=0).astype(a.dtype)


cdef bint _group_norm_args(object x, object gamma, object other, object groups,
                           object eps):
    # x a non-empty (n, c, ...) float array, c a multiple of groups, gamma
    # and other (c,) of its dtype, groups a positive int, eps a number
    if not (_plain(x, None) and type(groups) is int and groups > 0):
        return False
    cdef cnp.ndarray a = <cnp.ndarray>x
    if cnp.PyArray_NDIM(a) < 2 or cnp.PyArray_SIZE(a) == 0:
        return False
    if a.shape[1] % groups:
        return False
    for v in (gamma, other):
        if not (_plain(v, None) and cnp.PyArray_NDIM(<cnp.ndarray>v) == 1
                and (<cnp.ndarray>v).shape[0] == a.shape[1]
                and descr_of(<cnp.ndarray>v) is descr_of(a)):
            return False
    return type(eps) is float or type(eps) is int


def group_norm(x, gamma, beta, groups, eps):
    """Group normalization of ``x`` (samples, channels, ...) over
    ``groups`` groups of channels: a new array, or None where it
    declines."""
    if not _group_norm_args(x, gamma, beta, groups, eps):
        return None
    cdef cnp.ndarray a = <cnp.ndarray>x
    cdef Py_ssize_t g = groups, cg = a.shape[1] // groups
    cdef Py_ssize_t rows = a.shape[0] * g
    cdef Py_ssize_t s = cnp.PyArray_SIZE(a) // (rows * cg)
    cdef double c_eps = eps
    cdef cnp.ndarray y = numpy.empty_like(a)
    cdef bint single = descr_of(a) is float32()
    cdef void* xd = cnp.PyArray_DATA(a)
    cdef void* gd = cnp.PyArray_DATA(<cnp.ndarray>gamma)
    cdef void* bd = cnp.PyArray_DATA(<cnp.ndarray>beta)
    cdef void* yd = cnp.PyArray_DATA(y)
    cdef int threads = cl_max_threads(), parts
    cdef Py_ssize_t t, b, e
    cdef Chunks todo = chunks(rows, 2 * cg * s, threads)
    while next_chunk(&todo):
        parts = _parts(todo.end - todo.begin, 2 * cg * s, threads)
        with nogil:
            for t in prange(parts, schedule='static', num_threads=parts,
                            use_threads_if=parts > 1):
                b = _cut(todo.begin, todo.end, parts, t)
                e = _cut(todo.begin, todo.end, parts, t + 1)
                if single:
                    cl_group_norm_f32(<const float*>xd, <const float*>gd,
                                      <const float*>bd, <float*>yd, b,
                                      e, g, cg, s, c_eps)
                else:
                    cl_group_norm_f64(<const double*>xd, <const double*>gd,
                                      <const double*>bd, <double*>yd, b,
                                      e, g, cg, s, c_eps)
    return y


def group_norm_grad(x, gamma, gy, groups, eps):
    """The gradients ``(gx, ggamma, gbeta)`` of :func:`group_norm` from its
    input ``x``, ``gamma`` and the output gradient ``gy``, or None where it
    declines."""
    if not (_group_norm_args(x, gamma, gamma, groups, eps) and _plain(gy, x)):
        return None
    cdef cnp.ndarray a = <cnp.ndarray>x
    cdef Py_ssize_t g = groups, cg = a.shape[1] // groups
    cdef Py_ssize_t rows = a.shape[0] * g
    cdef Py_ssize_t s = cnp.PyArray_SIZE(a) // (rows * cg)
    cdef double c_eps = eps
    cdef cnp.ndarray gx = numpy.empty_like(a)
    cdef Py_ssize_t c = a.shape[1], blocks = (rows + SUM_BLOCK - 1) // SUM_BLOCK
    cdef cnp.ndarray gg = numpy.zeros((blocks, c), numpy.float64)
    cdef cnp.ndarray gb = numpy.zeros((blocks, c), numpy.float64)
    cdef bint single = descr_of(a) is float32()
    cdef void* xd = cnp.PyArray_DATA(a)
    cdef void* gmd = cnp.PyArray_DATA(<cnp.ndarray>gamma)
    cdef void* gyd = cnp.PyArray_DATA(<cnp.ndarray>gy)
    cdef void* gxd = cnp.PyArray_DATA(gx)
    cdef double* ggd = <double*>cnp.PyArray_DATA(gg)
    cdef double* gbd = <double*>cnp.PyArray_DATA(gb)
    cdef int threads = cl_max_threads(), parts
    cdef Py_ssize_t t, k, b, e
    # items: blocks of SUM_BLOCK rows, each summing into its own row of gg, gb
    cdef Chunks todo = chunks(blocks, 4 * cg * s * SUM_BLOCK, threads)
    while next_chunk(&todo):
        parts = _parts(todo.end - todo.begin, 4 * cg * s * SUM_BLOCK, threads)
        with nogil:
            for t in prange(parts, schedule='static', num_threads=parts,
                            use_threads_if=parts > 1):
                for k in range(_cut(todo.begin, todo.end, parts, t),
                               _cut(todo.begin, todo.end, parts, t + 1)):
                    b = k * SUM_BLOCK
                    e = b + SUM_BLOCK if b + SUM_BLOCK < rows else rows
                    if single:
                        cl_group_norm_grad_f32(
                            <const float*>xd, <const float*>gmd,
                            <const float*>gyd, <float*>gxd, ggd + k * c,
                            gbd + k * c, b, e, g, cg, s, c_eps)
                    else:
                        cl_group_norm_grad_f64(
                            <const double*>xd, <const double*>gmd,
                            <const double*>gyd, <double*>gxd, ggd + k * c,
                            gbd + k * c, b, e, g, cg, s, c_eps)
    return gx, gg.sum(axis=0).astype(a.dtype), gb.sum(axis=0).astype(a.dtype)


# below this many elements a block (n, channel) the passes of NumPy over the
# whole array are as fast
_BATCH_MIN_BLOCK = 8


cdef bint _batch_args(object x, object gamma, object other, object eps):
    # x a non-empty (n, c, ...) float array with blocks of at least
    # _BATCH_MIN_BLOCK elements, gamma and other (c,) of its dtype, eps a
    # number
    if not _plain(x, None) or not (type(eps) is float or type(eps) is int):
        return False
    cdef cnp.ndarray a = <cnp.ndarray>x
    if cnp.PyArray_NDIM(a) < 3 or cnp.PyArray_SIZE(a) == 0:
        return False
    if cnp.PyArray_SIZE(a) // (a.shape[0] * a.shape[1]) < _BATCH_MIN_BLOCK:
        return False
    for v in (gamma, other):
        if not (_plain(v, None) and cnp.PyArray_NDIM(<cnp.ndarray>v) == 1
                and (<cnp.ndarray>v).shape[0] == a.shape[1]
                and descr_of(<cnp.ndarray>v) is descr_of(a)):
            return False
    return True


def batch_norm(x, gamma, beta, eps):
    """Batch normalization of ``x`` (samples, channels, ...) over all axes
    but the channels: ``(y, mean, var)`` (the statistics (channels,) in
    ``x``'s dtype, the variance biased), or None where it declines."""
    if not _batch_args(x, gamma, beta, eps):
        return None
    cdef cnp.ndarray a = <cnp.ndarray>x
    cdef Py_ssize_t n = a.shape[0], c = a.shape[1]
    cdef Py_ssize_t s = cnp.PyArray_SIZE(a) // (n * c)
    cdef double c_eps = eps
    cdef cnp.ndarray y = numpy.empty_like(a)
    cdef cnp.ndarray mean = numpy.empty(c, numpy.float64)
    cdef cnp.ndarray var = numpy.empty(c, numpy.float64)
    cdef bint single = descr_of(a) is float32()
    cdef void* xd = cnp.PyArray_DATA(a)
    cdef void* yd = cnp.PyArray_DATA(y)
    cdef void* gd = cnp.PyArray_DATA(<cnp.ndarray>gamma)
    cdef void* bd = cnp.PyArray_DATA(<cnp.ndarray>beta)
    cdef double* md = <double*>cnp.PyArray_DATA(mean)
    cdef double* vd = <double*>cnp.PyArray_DATA(var)
    cdef int threads = cl_max_threads(), parts
    cdef Py_ssize_t t, b, e
    cdef Chunks todo = chunks(c, 3 * n * s, threads)
    while next_chunk(&todo):
        parts = _parts(todo.end - todo.begin, 3 * n * s, threads)
        with nogil:
            for t in prange(parts, schedule='static', num_threads=parts,
                            use_threads_if=parts > 1):
                b = _cut(todo.begin, todo.end, parts, t)
                e = _cut(todo.begin, todo.end, parts, t + 1)
                if single:
                    cl_batch_stats_f32(<const float*>xd, n, c, s, b,
                                       e, md, vd)
                    cl_batch_apply_f32(<const float*>xd, <float*>yd, n, c, s,
                                       b, e, md, vd, c_eps,
                                       <const float*>gd, <const float*>bd)
                else:
                    cl_batch_stats_f64(<const double*>xd, n, c, s, b,
                                       e, md, vd)
                    cl_batch_apply_f64(<const double*>xd, <double*>yd, n, c, s,
                                       b, e, md, vd, c_eps,
                                       <const double*>gd, <const double*>bd)
    return y, mean.astype(a.dtype), var.astype(a.dtype)


def batch_norm_grad(x, gamma, gy, mean, var, eps):
    """The gradients ``(gx, ggamma, gbeta)`` of :func:`batch_norm` from its
    input ``x``, ``gamma``, the output gradient ``gy`` and the statistics
    of the forward pass (any arrays of ``channels`` numbers), or None where
    it declines."""
    if not (_batch_args(x, gamma, gamma, eps) and _plain(gy, x)):
        return None
    cdef cnp.ndarray a = <cnp.ndarray>x
    cdef Py_ssize_t n = a.shape[0], c = a.shape[1]
    cdef Py_ssize_t s = cnp.PyArray_SIZE(a) // (n * c)
    if numpy.size(mean) != c or numpy.size(var) != c:
        return None
    cdef cnp.ndarray m64 = numpy.ascontiguousarray(mean, numpy.float64).reshape(c)
    cdef cnp.ndarray v64 = numpy.ascontiguousarray(var, numpy.float64).reshape(c)
    cdef double c_eps = eps
    cdef cnp.ndarray gx = numpy.empty_like(a)
    cdef cnp.ndarray gg = numpy.empty(c, numpy.float64)
    cdef cnp.ndarray gb = numpy.empty(c, numpy.float64)
    cdef bint single = descr_of(a) is float32()
    cdef void* xd = cnp.PyArray_DATA(a)
    cdef void* gyd = cnp.PyArray_DATA(<cnp.ndarray>gy)
    cdef void* gxd = cnp.PyArray_DATA(gx)
    cdef void* gmd = cnp.PyArray_DATA(<cnp.ndarray>gamma)
    cdef double* md = <double*>cnp.PyArray_DATA(m64)
    cdef double* vd = <double*>cnp.PyArray_DATA(v64)
    cdef double* ggd = <double*>cnp.PyArray_DATA(gg)
    cdef double* gbd = <double*>cnp.PyArray_DATA(gb)
    cdef int threads = cl_max_threads(), parts
    cdef Py_ssize_t t, b, e
    cdef Chunks todo = chunks(c, 4 * n * s, threads)
    while next_chunk(&todo):
        parts = _parts(todo.end - todo.begin, 4 * n * s, threads)
        with nogil:
            for t in prange(parts, schedule='static', num_threads=parts,
                            use_threads_if=parts > 1):
                b = _cut(todo.begin, todo.end, parts, t)
                e = _cut(todo.begin, todo.end, parts, t + 1)
                if single:
                    cl_batch_grad_f32(<const float*>xd, <const float*>gyd,
                                      <float*>gxd, n, c, s, b, e,
                                      md, vd, c_eps, <const float*>gmd, ggd, gbd)
                else:
                    cl_batch_grad_f64(<const double*>xd, <const double*>gyd,
                                      <double*>gxd, n, c, s, b, e,
                                      md, vd, c_eps, <const double*>gmd, ggd, gbd)
    return gx, gg.astype(a.dtype), gb.astype(a.dtype)


cdef cnp.ndarray _channel_values(object v, Py_ssize_t c):
    # v as a C-contiguous float64 vector of c numbers, or None
    if type(v) is not cnp.ndarray or cnp.PyArray_SIZE(<cnp.ndarray>v) != c:
        return None
    return numpy.ascontiguousarray(v, numpy.float64).reshape(c)


def batch_norm_fixed(x, gamma, beta, mean, var, eps):
    """Batch normalization of ``x`` (samples, channels, ...) with the given
    statistics (arrays of ``channels`` numbers): a new array, or None where
    it declines."""
    if not _batch_args(x, gamma, beta, eps):
        return None
    cdef cnp.ndarray a = <cnp.ndarray>x
    cdef Py_ssize_t n = a.shape[0], c = a.shape[1]
    cdef Py_ssize_t s = cnp.PyArray_SIZE(a) // (n * c)
    cdef cnp.ndarray m64 = _channel_values(mean, c)
    cdef cnp.ndarray v64 = _channel_values(var, c)
    if m64 is None or v64 is None:
        return None
    cdef double c_eps = eps
    cdef cnp.ndarray y = numpy.empty_like(a)
    cdef bint single = descr_of(a) is float32()
    cdef void* xd = cnp.PyArray_DATA(a)
    cdef void* yd = cnp.PyArray_DATA(y)
    cdef void* gd = cnp.PyArray_DATA(<cnp.ndarray>gamma)
    cdef void* bd = cnp.PyArray_DATA(<cnp.ndarray>beta)
    cdef double* md = <double*>cnp.PyArray_DATA(m64)
    cdef double* vd = <double*>cnp.PyArray_DATA(v64)
    cdef int threads = cl_max_threads(), parts
    cdef Py_ssize_t t, b, e
    cdef Chunks todo = chunks(c, n * s, threads)
    while next_chunk(&todo):
        parts = _parts(todo.end - todo.begin, n * s, threads)
        with nogil:
            for t in prange(parts, schedule='static', num_threads=parts,
                            use_threads_if=parts > 1):
                b = _cut(todo.begin, todo.end, parts, t)
                e = _cut(todo.begin, todo.end, parts, t + 1)
                if single:
                    cl_batch_apply_f32(<const float*>xd, <float*>yd, n, c, s,
                                       b, e, md, vd, c_eps,
                                       <const float*>gd, <const float*>bd)
                else:
                    cl_batch_apply_f64(<const double*>xd, <double*>yd, n, c, s,
                                       b, e, md, vd, c_eps,
                                       <const double*>gd, <const double*>bd)
    return y


def batch_norm_fixed_grad(x, gy, mean, scale):
    """For the batch normalization of ``x`` with the given ``mean`` and
    ``scale`` (gamma over the deviation; arrays of ``channels`` numbers),
    ``(gy * scale, sum(gy), sum(gy * (x - mean)))``, the sums per channel
    in float64, or None where it declines."""
    if not (_plain(x, None) and _plain(gy, x)):
        return None
    cdef cnp.ndarray a = <cnp.ndarray>x
    if cnp.PyArray_NDIM(a) < 3 or cnp.PyArray_SIZE(a) == 0:
        return None
    cdef Py_ssize_t n = a.shape[0], c = a.shape[1]
    cdef Py_ssize_t s = cnp.PyArray_SIZE(a) // (n * c)
    if s < _BATCH_MIN_BLOCK:
        return None
    cdef cnp.ndarray m64 = _channel_values(mean, c)
    cdef cnp.ndarray s64 = _channel_values(scale, c)
    if m64 is None or s64 is None:
        return None
    cdef cnp.ndarray gx = numpy.empty_like(a)
    cdef cnp.ndarray sgy = numpy.empty(c, numpy.float64)
    cdef cnp.ndarray sgxc = numpy.empty(c, numpy.float64)
    cdef bint single = descr_of(a) is float32()
    cdef void* xd = cnp.PyArray_DATA(a)
    cdef void* gyd = cnp.PyArray_DATA(<cnp.ndarray>gy)
    cdef void* gxd = cnp.PyArray_DATA(gx)
    cdef double* md = <double*>cnp.PyArray_DATA(m64)
    cdef double* sd = <double*>cnp.PyArray_DATA(s64)
    cdef double* a_d = <double*>cnp.PyArray_DATA(sgy)
    cdef double* b_d = <double*>cnp.PyArray_DATA(sgxc)
    cdef int threads = cl_max_threads(), parts
    cdef Py_ssize_t t, b, e
    cdef Chunks todo = chunks(c, 2 * n * s, threads)
    while next_chunk(&todo):
        parts = _parts(todo.end - todo.begin, 2 * n * s, threads)
        with nogil:
            for t in prange(parts, schedule='static', num_threads=parts,
                            use_threads_if=parts > 1):
                b = _cut(todo.begin, todo.end, parts, t)
                e = _cut(todo.begin, todo.end, parts, t + 1)
                if single:
                    cl_batch_fixed_grad_f32(<const float*>xd, <const float*>gyd,
                                            <float*>gxd, n, c, s, b,
                                            e, md, sd, a_d, b_d)
                else:
                    cl_batch_fixed_grad_f64(<const double*>xd, <const double*>gyd,
                                            <double*>gxd, n, c, s, b,
                                            e, md, sd, a_d, b_d)
    return gx, sgy, sgxc
