/* ReLU and its gradient over contiguous float32/float64 arrays, one pass.
 *
 * NumPy's maximum(x, 0) checks for NaN lane by lane and the gradient
 * gy * (y > 0) makes a boolean temporary and a second pass; these loops do
 * each in one pass that the compiler vectorises. On x86-64 with GCC, each
 * loop is compiled for AVX-512, AVX2 and the baseline, and the loader picks
 * the one the CPU runs (target_clones).
 *
 * Results are those of the NumPy expressions, bit for bit: relu keeps x
 * where x > 0 or x is NaN and gives +0 elsewhere (as NumPy's vector loops
 * do for -0); the gradient multiplies gy by 1 or 0, so an infinite or NaN
 * gy where y <= 0 gives NaN, as in NumPy.
 */
#ifndef CHAINERLITE_RELU_KERNELS_H
#define CHAINERLITE_RELU_KERNELS_H

#include <stddef.h>

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && \
    defined(__linux__)
#define CL_RELU_CLONES \
    __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CL_RELU_CLONES
#endif

#define CL_RELU_LOOPS(T, SUFFIX)                                            \
    CL_RELU_CLONES static void cl_relu_##SUFFIX(const T *x, T *y,          \
                                                ptrdiff_t n) {             \
        for (ptrdiff_t i = 0; i < n; i++) {                                 \
            T v = x[i];                                                     \
            y[i] = (v > 0 || v != v) ? v : (T)0;                            \
        }                                                                   \
    }                                                                       \
    CL_RELU_CLONES static void cl_relu_grad_##SUFFIX(                      \
        const T *y, const T *gy, T *gx, ptrdiff_t n) {                      \
        for (ptrdiff_t i = 0; i < n; i++)                                   \
            gx[i] = gy[i] * (y[i] > 0 ? (T)1 : (T)0);                       \
    }

CL_RELU_LOOPS(float, f32)
CL_RELU_LOOPS(double, f64)

#endif
