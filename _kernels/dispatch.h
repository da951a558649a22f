/* CPU feature dispatch of the compiled kernels: the one place that says
 * which instruction sets a kernel may be compiled for and how the CPU is
 * asked what it runs. A kernel includes it from the C inside its .pyx:
 *
 *   CL_CLONES       before a plain C loop function: on x86-64 Linux with
 *                   GCC the loop is compiled for AVX-512, AVX2 and the
 *                   baseline, and the loader picks the one the CPU runs
 *                   (target_clones); elsewhere the baseline alone. The
 *                   clones round as the baseline does (no FMA contraction
 *                   is added by the target), so results stay bitwise.
 *   CL_HAVE_AVX2    1 where hand-written AVX2 + FMA code compiles (GCC or
 *                   Clang on x86-64), which then includes <immintrin.h>
 *                   and marks its functions CL_AVX2 / CL_AVX2_INLINE;
 *                   such code runs only where cl_cpu_avx2_fma() says so.
 *   cl_cpu_avx2_fma()  whether this CPU has AVX2 and FMA (0 where
 *                   CL_HAVE_AVX2 is 0).
 *   CL_AVX512_INLINE, cl_cpu_avx512f()  the same for hand-written AVX-512F
 *                   code (where CL_HAVE_AVX2 is 1).
 *
 * Nothing else in the wheel is built for more than the baseline.
 */
#ifndef CHAINERLITE_KERNELS_DISPATCH_H
#define CHAINERLITE_KERNELS_DISPATCH_H

#include <stddef.h>

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && \
    defined(__linux__)
#define CL_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CL_CLONES
#endif

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define CL_HAVE_AVX2 1
#include <immintrin.h>
#define CL_AVX2 __attribute__((target("avx2,fma")))
#define CL_AVX2_INLINE \
    static inline __attribute__((always_inline, target("avx2,fma")))
static inline int cl_cpu_avx2_fma(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
#define CL_AVX512 __attribute__((target("avx512f")))
#define CL_AVX512_INLINE \
    static inline __attribute__((always_inline, target("avx512f")))
static inline int cl_cpu_avx512f(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f");
}
#else
#define CL_HAVE_AVX2 0
static inline int cl_cpu_avx2_fma(void) { return 0; }
static inline int cl_cpu_avx512f(void) { return 0; }
#endif

#endif
