/* The LSTM cell of the compiled kernels, 16 cells at a time (see
 * lstm.pyx for the layout): shared by the one-step kernels of lstm.pyx
 * and the whole-layer kernels of lstm_layer.pyx. */
#ifndef CHAINERLITE_KERNELS_LSTM_CELL_H
#define CHAINERLITE_KERNELS_LSTM_CELL_H

#include "dispatch.h"
#include "vec_tanh.h"

#if CL_HAVE_VEC
/* m (<= 16) cells from r on of one unit: the gates at x + k q, the
 * activations at act + k q (act NULL: not kept) */
CL_VINLINE void cl_lstm_fwd_block(const float *cp, const float *x,
                                  float *cn, float *h, float *act,
                                  Py_ssize_t q, int m) {
    cl_vf a = cl_vtanh(cl_vload(x, m));
    cl_vf i = cl_vsigmoid(cl_vload(x + q, m));
    cl_vf f = cl_vsigmoid(cl_vload(x + 2 * q, m));
    cl_vf o = cl_vsigmoid(cl_vload(x + 3 * q, m));
    cl_vf c = a * i + f * cl_vload(cp, m);
    cl_vf tc = cl_vtanh(c);
    cl_vstore(cn, c, m);
    cl_vstore(h, o * tc, m);
    if (act != NULL) {
        cl_vstore(act, a, m);
        cl_vstore(act + q, i, m);
        cl_vstore(act + 2 * q, f, m);
        cl_vstore(act + 3 * q, o, m);
        cl_vstore(act + 4 * q, tc, m);
    }
}

/* the gradients of m cells; the activations from act, or (act NULL)
 * evaluated again from x and cn as the forward does */
CL_VINLINE void cl_lstm_bwd_block(const float *cp, const float *x,
                                  const float *cn, const float *act,
                                  const float *gc, const float *gh,
                                  float *gcp, float *gx, Py_ssize_t q,
                                  int m) {
    cl_vf a, i, f, o, tc;
    if (act != NULL) {
        a = cl_vload(act, m);
        i = cl_vload(act + q, m);
        f = cl_vload(act + 2 * q, m);
        o = cl_vload(act + 3 * q, m);
        tc = cl_vload(act + 4 * q, m);
    } else {
        a = cl_vtanh(cl_vload(x, m));
        i = cl_vsigmoid(cl_vload(x + q, m));
        f = cl_vsigmoid(cl_vload(x + 2 * q, m));
        o = cl_vsigmoid(cl_vload(x + 3 * q, m));
        tc = cl_vtanh(cl_vload(cn, m));
    }
    cl_vf g_h = cl_vload(gh, m);
    cl_vf grad = cl_vload(gc, m) + g_h * o * (1.0f - tc * tc);
    cl_vstore(gx, grad * i * (1.0f - a * a), m);
    cl_vstore(gx + q, grad * a * i * (1.0f - i), m);
    cl_vstore(gx + 2 * q, grad * cl_vload(cp, m) * f * (1.0f - f), m);
    cl_vstore(gx + 3 * q, g_h * tc * o * (1.0f - o), m);
    cl_vstore(gcp, grad * f, m);
}

/* one row of the cell: units units of q cells each; the blocks of 16
 * cells, then the last few */
CL_CLONES static void cl_lstm_fwd_row(const float *cp, const float *x,
                                      float *cn, float *h, float *act,
                                      Py_ssize_t units, Py_ssize_t q) {
    Py_ssize_t u, r;
    for (u = 0; u < units; u++) {
        float *ka = act != NULL ? act + u * 5 * q : NULL;
        const float *ux = x + u * 4 * q;
        for (r = 0; r + CL_VLANES <= q; r += CL_VLANES)
            cl_lstm_fwd_block(cp + u * q + r, ux + r, cn + u * q + r,
                              h + u * q + r, ka ? ka + r : NULL, q,
                              CL_VLANES);
        if (r < q)
            cl_lstm_fwd_block(cp + u * q + r, ux + r, cn + u * q + r,
                              h + u * q + r, ka ? ka + r : NULL, q,
                              (int)(q - r));
    }
}

CL_CLONES static void cl_lstm_bwd_row(const float *cp, const float *x,
                                      const float *cn, const float *act,
                                      const float *gc, const float *gh,
                                      float *gcp, float *gx,
                                      Py_ssize_t units, Py_ssize_t q) {
    Py_ssize_t u, r;
    for (u = 0; u < units; u++) {
        const float *ka = act != NULL ? act + u * 5 * q : NULL;
        const float *kn = cn != NULL ? cn + u * q : NULL;
        const float *ux = x + u * 4 * q;
        float *ug = gx + u * 4 * q;
        Py_ssize_t o = u * q;
        for (r = 0; r + CL_VLANES <= q; r += CL_VLANES)
            cl_lstm_bwd_block(cp + o + r, ux + r, kn ? kn + r : NULL,
                              ka ? ka + r : NULL, gc + o + r, gh + o + r,
                              gcp + o + r, ug + r, q, CL_VLANES);
        if (r < q)
            cl_lstm_bwd_block(cp + o + r, ux + r, kn ? kn + r : NULL,
                              ka ? ka + r : NULL, gc + o + r, gh + o + r,
                              gcp + o + r, ug + r, q, (int)(q - r));
    }
}
#else
#define CL_VLANES 0
static void cl_lstm_fwd_row(const float *cp, const float *x, float *cn,
                            float *h, float *act, Py_ssize_t units,
                            Py_ssize_t q) {}
static void cl_lstm_bwd_row(const float *cp, const float *x,
                            const float *cn, const float *act,
                            const float *gc, const float *gh, float *gcp,
                            float *gx, Py_ssize_t units, Py_ssize_t q) {}
#endif

#endif
