/* tanh of 16 floats at once, written with GCC's vector extensions so that
 * one body serves every target a CL_CLONES function is compiled for
 * (AVX-512: one zmm register; AVX2: two ymm; the baseline: four xmm).
 *
 *   cl_vf cl_vtanh(cl_vf x)   tanh, lane by lane
 *   cl_vf cl_vsigmoid(cl_vf x)  tanh(x / 2) / 2 + 1 / 2 (the formula of
 *                             Chainer's LSTM, whose NumPy path computes it so)
 *
 * Accuracy against tanh in double precision, every float32 checked: at most
 * 1.03 units in the last place with FMA (the AVX-512 clone), 1.16 without
 * (the AVX2 and baseline ones: GCC adds no FMA there); +-0, +-inf,
 * NaN and denormals come out as libm's tanhf gives them (tanh(-0) = -0,
 * tanh(+-inf) = +-1, NaN stays NaN, a denormal x gives x).
 *
 * Method, on a = |x| (the sign is put back at the end):
 *   a < 1:  a + a^3 P(a^2), P a degree-6 fit of relative error (0.07 ulp
 *           before rounding) made for this kernel;
 *   a >= 1: 1 - 2e / (1 + e) with e = exp(-2 min(a, 9.5)) (tanh(9.5) rounds
 *           to 1), exp by the usual reduction e = 2^n exp(r), |r| <= ln2/2,
 *           and a degree-6 polynomial of exp(r) - 1 - r;
 * both sides are evaluated and one is selected, so no lane branches.
 * GCC (or Clang) only: the callers compile it where CL_HAVE_VEC is 1. */
#ifndef CHAINERLITE_KERNELS_VEC_TANH_H
#define CHAINERLITE_KERNELS_VEC_TANH_H

#if defined(__GNUC__)
#define CL_HAVE_VEC 1
/* 64-byte vectors passed between inlined functions: no ABI is involved */
#pragma GCC diagnostic ignored "-Wpsabi"

typedef float cl_vf __attribute__((vector_size(64), aligned(4)));
typedef int cl_vi __attribute__((vector_size(64), aligned(4)));
#define CL_VLANES 16
#define CL_VINLINE static inline __attribute__((always_inline))

CL_VINLINE cl_vf cl_vselect(cl_vi mask, cl_vf yes, cl_vf no) {
    return (cl_vf)(((cl_vi)yes & mask) | ((cl_vi)no & ~mask));
}

CL_VINLINE cl_vf cl_vtanh(cl_vf x) {
    static const float poly[7] = {
        -0.00035845208913087845f, 0.002301364904269576f,
        -0.007946107536554337f, 0.021486658602952957f,
        -0.05387980118393898f, 0.13332344591617584f,
        -0.33333295583724976f};
    const cl_vi sign = (cl_vi){} + (int)0x80000000;
    const float shifter = 12582912.0f; /* 1.5 * 2^23: rounds to an integer */
    cl_vf a = (cl_vf)((cl_vi)x & ~sign);
    cl_vf s = a * a, p = (cl_vf){} + poly[0];
    int j;
    for (j = 1; j < 7; j++)
        p = p * s + poly[j];
    cl_vf near0 = a + a * s * p;
    /* y = -2 min(a, 9.5) (NaN lanes take 9.5 here and the other side) */
    cl_vf y = cl_vselect(a < 9.5f, a, (cl_vf){} + 9.5f) * -2.0f;
    cl_vf n = (y * 1.44269504088896341f + shifter) - shifter;
    cl_vf r = (y - n * 0.693145751953125f) - n * 1.428606765330187045e-06f;
    cl_vf q = (cl_vf){} + 0.0013814610429108143f;
    q = q * r + 0.008368710055947304f;
    q = q * r + 0.04166838899254799f;
    q = q * r + 0.1666652113199234f;
    q = q * r + 0.4999999403953552f;
    q = q * r * r + r;
    cl_vf scale = (cl_vf)((__builtin_convertvector(n, cl_vi) + 127) << 23);
    cl_vf e = (q + 1.0f) * scale;
    cl_vf far = 1.0f - 2.0f * e / (1.0f + e);
    cl_vf t = cl_vselect(a >= 1.0f, far, near0);
    return (cl_vf)((cl_vi)t | ((cl_vi)x & sign));
}

CL_VINLINE cl_vf cl_vsigmoid(cl_vf x) {
    return cl_vtanh(x * 0.5f) * 0.5f + 0.5f;
}

/* lanes [0, m) from p, the others zero; m is a constant where inlined */
CL_VINLINE cl_vf cl_vload(const float *p, int m) {
    cl_vf v = {};
    __builtin_memcpy(&v, p, (size_t)m * sizeof(float));
    return v;
}

CL_VINLINE void cl_vstore(float *p, cl_vf v, int m) {
    __builtin_memcpy(p, &v, (size_t)m * sizeof(float));
}
#else
#define CL_HAVE_VEC 0
#endif

#endif
