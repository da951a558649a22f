/* The AVX-512 tiles of the packed products (see packed_gemm.pyx):
 * shared by packed_gemm.pyx and the whole-layer LSTM kernels of
 * lstm_layer.pyx. */
#ifndef CHAINERLITE_KERNELS_PACKED_TILE_H
#define CHAINERLITE_KERNELS_PACKED_TILE_H

#include "dispatch.h"
#define CL_NR 32  /* columns of a panel */
#define CL_MR 10  /* rows of the left operand against a panel at once */
/* rows of a panel fetched ahead of the sums: a panel (k x 32 floats)
 * outgrows L1 from k = 384 on, and its lines then came in only as the
 * loads asked for them (20 rows against a 650 x 2600 matrix, one thread:
 * 124 to 150 GF/s with the fetch; 64 rows: 148 to 163) */
#define CL_PG_AHEAD 8

#if CL_HAVE_AVX2
/* c[i, :nc] = a[i, :k] @ panel + d[i, :nc] for the first mr rows of
 * a (d NULL: nothing added); the panel holds k rows of CL_NR floats.
 * mr is a constant where it is inlined. */
CL_AVX512_INLINE void cl_pg_tile(int mr, Py_ssize_t k, const float* a,
                                 Py_ssize_t lda, const float* panel,
                                 const float* d, Py_ssize_t ldd,
                                 float* c, Py_ssize_t ldc, int nc) {
    __m512 c0[CL_MR], c1[CL_MR];
    int i;
    Py_ssize_t j;
    __mmask16 m0 = nc >= 16 ? 0xFFFF : (__mmask16)((1u << nc) - 1);
    __mmask16 m1 = nc >= 32 ? 0xFFFF
                   : nc <= 16 ? 0 : (__mmask16)((1u << (nc - 16)) - 1);
    for (i = 0; i < CL_MR; i++) {
        /* d's rows are added after the sums: fetched now, they arrive
         * while the sums run (loaded first, each tile waited on them) */
        if (d != NULL && i < mr) {
            _mm_prefetch((const char *)(d + i * ldd), _MM_HINT_T0);
            _mm_prefetch((const char *)(d + i * ldd + 16), _MM_HINT_T0);
        }
        c0[i] = _mm512_setzero_ps();
        c1[i] = _mm512_setzero_ps();
    }
    for (j = 0; j < k; j++) {
        /* (a hint: no fault past the panel's end) */
        _mm_prefetch((const char *)(panel + (j + CL_PG_AHEAD) * CL_NR),
                     _MM_HINT_T0);
        _mm_prefetch((const char *)(panel + (j + CL_PG_AHEAD) * CL_NR + 16),
                     _MM_HINT_T0);
        __m512 b0 = _mm512_loadu_ps(panel + j * CL_NR);
        __m512 b1 = _mm512_loadu_ps(panel + j * CL_NR + 16);
        #pragma GCC unroll 10
        for (i = 0; i < CL_MR; i++) {
            if (i < mr) {
                __m512 x = _mm512_set1_ps(a[i * lda + j]);
                c0[i] = _mm512_fmadd_ps(x, b0, c0[i]);
                c1[i] = _mm512_fmadd_ps(x, b1, c1[i]);
            }
        }
    }
    for (i = 0; i < mr; i++) {
        if (d != NULL) {
            c0[i] = _mm512_add_ps(
                c0[i], _mm512_maskz_loadu_ps(m0, d + i * ldd));
            c1[i] = _mm512_add_ps(
                c1[i], _mm512_maskz_loadu_ps(m1, d + i * ldd + 16));
        }
        _mm512_mask_storeu_ps(c + i * ldc, m0, c0[i]);
        _mm512_mask_storeu_ps(c + i * ldc + 16, m1, c1[i]);
    }
}

#define CL_PG_CASE(R) \
    case R: cl_pg_tile(R, k, a, lda, panel, d, ldd, c, ldc, nc); break;
static CL_AVX512 void cl_pg_panel(Py_ssize_t m, Py_ssize_t k,
                                  const float* a, Py_ssize_t lda,
                                  const float* panel, const float* d,
                                  Py_ssize_t ldd, float* c,
                                  Py_ssize_t ldc, int nc) {
    Py_ssize_t r;
    for (r = 0; r < m; r += CL_MR, a += CL_MR * lda, c += CL_MR * ldc,
                       d = d ? d + CL_MR * ldd : d) {
        switch (m - r < CL_MR ? (int)(m - r) : CL_MR) {
            CL_PG_CASE(1) CL_PG_CASE(2) CL_PG_CASE(3) CL_PG_CASE(4)
            CL_PG_CASE(5) CL_PG_CASE(6) CL_PG_CASE(7) CL_PG_CASE(8)
            CL_PG_CASE(9) CL_PG_CASE(10)
        }
    }
}
static int cl_pg_cpu(void) { return cl_cpu_avx512f(); }
#else
static void cl_pg_panel(Py_ssize_t m, Py_ssize_t k, const float* a,
                        Py_ssize_t lda, const float* panel,
                        const float* d, Py_ssize_t ldd, float* c,
                        Py_ssize_t ldc, int nc) {}
static int cl_pg_cpu(void) { return 0; }
#endif

/* panel p of w (rows x cols, C order): transposed, its rows p*CL_NR...
 * as columns (w is n x k); else its columns p*CL_NR... (w is k x n) */
static void cl_pg_pack(const float* w, Py_ssize_t rows, Py_ssize_t cols,
                       int transposed, Py_ssize_t p, float* panel) {
    Py_ssize_t j, q, n = transposed ? rows : cols;
    Py_ssize_t k = transposed ? cols : rows, first = p * CL_NR;
    int nc = n - first < CL_NR ? (int)(n - first) : CL_NR;
    for (j = 0; j < k; j++) {
        float* dst = panel + j * CL_NR;
        for (q = 0; q < nc; q++)
            dst[q] = transposed ? w[(first + q) * cols + j]
                                : w[j * cols + first + q];
        for (q = nc; q < CL_NR; q++)
            dst[q] = 0.0f;
    }
}

#endif
