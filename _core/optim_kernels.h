/* Adam's CPU update of a float32/float64 parameter in one pass.
 *
 * NumPy runs the rule as a dozen whole-array operations, each with its own
 * temporary (about 6 ms a step for an MLP of 1.8M parameters, against 11
 * for its forward and backward); this loop reads each element of the
 * parameter, gradient and moments once. Each operation is the NumPy
 * expression's, in the same order and the same dtype, every result rounded
 * as NumPy rounds it, so the results are NumPy's bit for bit (NaN payloads
 * aside): no multiply-add may be fused and sqrt is the correctly rounded
 * one. On x86-64 with GCC the loop is compiled for
 * AVX-512, AVX2 and the baseline; the loader picks the one the CPU runs.
 */
#ifndef CHAINERLITE_OPTIM_KERNELS_H
#define CHAINERLITE_OPTIM_KERNELS_H

#include <math.h>
#include <stddef.h>

#pragma STDC FP_CONTRACT OFF

/* setup.py compiles this module with -ffp-contract=off (GCC ignores the
 * pragma above) and -fno-math-errno (or sqrt is a library call per
 * element) */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && \
    defined(__linux__)
#define CL_OPTIM_CLONES \
    __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CL_OPTIM_CLONES
#endif

/* m += b1c * (grad - m); v += b2c * (grad * grad - v);
 * param -= eta * (lr / (sqrt(v) + eps) * m + wd * param) */
#define CL_ADAM_LOOP(T, SUFFIX, SQRT)                                        \
    CL_OPTIM_CLONES static void cl_adam_##SUFFIX(                            \
        T *param, const T *grad, T *m, T *v, ptrdiff_t n, T b1c, T b2c,    \
        T lr, T eps, T eta, T wd) {                                          \
        for (ptrdiff_t i = 0; i < n; i++) {                                  \
            T g = grad[i], p = param[i];                                     \
            T mi = m[i] + b1c * (g - m[i]);                                  \
            T vi = v[i] + b2c * (g * g - v[i]);                              \
            T step = lr / (SQRT(vi) + eps);                                  \
            m[i] = mi;                                                       \
            v[i] = vi;                                                       \
            param[i] = p - eta * (step * mi + wd * p);                       \
        }                                                                    \
    }

CL_ADAM_LOOP(float, f32, sqrtf)
CL_ADAM_LOOP(double, f64, sqrt)

#endif
