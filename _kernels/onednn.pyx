# build: libdl
# (libdnnl is found at run time with dlopen: nothing of oneDNN at build time)
"""2-d float32 convolutions, batch normalization and matrix products
through oneDNN (libdnnl), where it is installed.

oneDNN is the CPU kernel library that PyTorch's convolutions and Chainer's
iDeep backend run on. Nothing of it is needed to build or import this
module: the library is looked for on the first call (:func:`available`),
with ``dlopen``, in this order: the path in the environment variable
``CHAINERLITE_ONEDNN_LIBRARY``; ``lib/libdnnl.so.3`` under the Python
prefix, where the ``onednn-cpu-gomp`` wheel (the ``onednn`` extra) puts
it; then the system's library path. A build of it that cannot make a CPU
engine (the SYCL build of the ``onednn`` wheel, without a SYCL CPU device)
counts as absent, and :func:`unavailable_reason` says why.

The convolutions :func:`conv2d`, :func:`conv2d_transpose` (the gradient
of the input) and :func:`conv2d_grad_weight` take float32 NumPy arrays in
NCHW layout (filters OIHW, ``groups`` blocks of them) and the parameters
of the convolution, and return a new array, or None where oneDNN is absent
or does not take the case (another dtype or number of axes, an empty
array, a problem oneDNN refuses); then the caller keeps its own path. The
arrays are reordered to the layout oneDNN's kernels choose and back within
each call. :func:`batch_norm` and :func:`batch_norm_grad` normalize
float32 (n, c) or (n, c, h, w) arrays over all axes but the channels, in
place of NumPy's several passes. :func:`matmul` multiplies float32 stacks
of matrices read in place with their strides (transposed views cost no
copy), one call for the whole stack; :func:`chosen_matmul` (``product``
for compiled callers: ``F.linear``'s product and gradients, ``F.matmul``)
takes it only where ``config.use_ideep`` allows and the product is of a
size where it gains (:data:`MIN_PRODUCT`, :data:`MAX_PRODUCT`). The primitives are kept in a cache keyed
by shapes and parameters (:data:`CACHE_SIZE` entries at most, all kinds
together). The convolutions' arrays in oneDNN's layouts and its scratchpad
are kept between calls in a workspace (one for each thread calling at once,
as large as the largest call has needed), so that their pages are not
faulted in again at each call. oneDNN's threads are the
OpenMP threads of the process (``OMP_NUM_THREADS``, as for the other
kernels: both use libgomp).
"""
cimport numpy as cnp
from libc.stdint cimport int64_t

import os
import sys

import numpy

cnp.import_array()

#: Sums in another order than NumPy's matmul: relative error of float32
#: accumulation over the filter window.
PRECISION = 'rtol 1e-4 float32'

#: Number of problems (convolutions, normalizations, products) whose
#: primitives are kept: a Transformer's step at one batch size runs about 21
#: products, a ResNet-18's 40 convolutions and normalizations.
CACHE_SIZE = 128


cdef extern from * nogil:
    """
    /* oneDNN's C API (v3), called through pointers looked up with dlsym.
     *
     * Only what the convolutions need is declared here: the library's objects
     * are opaque pointers, and the few enumeration values are those of its
     * v3 API (stable across 3.x). A plan is the primitives of one problem:
     * the convolution, with its inputs and output in the layouts its kernels
     * chose, and the reorders from and to the plain layouts of NumPy arrays.
     */
    #include <stdint.h>
    #include <stdlib.h>
    #include <string.h>
    #include <dlfcn.h>

    enum {
        CL_DNNL_CPU = 1, CL_DNNL_F32 = 3,
        CL_DNNL_TAG_ANY = 1, CL_DNNL_TAG_A = 2, CL_DNNL_TAG_ABCD = 5,
        CL_DNNL_TAG_ABCDE = 6,
        CL_DNNL_FWD_TRAINING = 64, CL_DNNL_CONV_DIRECT = 1,
        CL_DNNL_STREAM_DEFAULT = 1, CL_DNNL_SCRATCHPAD_USER = 1,
        CL_DNNL_ARG_SRC = 1, CL_DNNL_ARG_DST = 17, CL_DNNL_ARG_WEIGHTS = 33,
        CL_DNNL_ARG_BIAS = 41, CL_DNNL_ARG_DIFF_SRC = 129,
        CL_DNNL_ARG_DIFF_DST = 145, CL_DNNL_ARG_DIFF_WEIGHTS = 161,
        CL_DNNL_ARG_SCRATCHPAD = 80, CL_DNNL_ARG_FROM = 1, CL_DNNL_ARG_TO = 17,
        CL_DNNL_Q_SRC = 129, CL_DNNL_Q_DIFF_SRC = 130, CL_DNNL_Q_WEIGHTS = 131,
        CL_DNNL_Q_DIFF_WEIGHTS = 132, CL_DNNL_Q_DST = 133,
        CL_DNNL_Q_DIFF_DST = 134, CL_DNNL_Q_SCRATCHPAD = 136,
        CL_DNNL_TAG_AB = 3, CL_DNNL_BACKWARD = 128,
        CL_DNNL_USE_SCALE = 2, CL_DNNL_USE_SHIFT = 4,
        CL_DNNL_ARG_MEAN = 49, CL_DNNL_ARG_VARIANCE = 50,
        CL_DNNL_ARG_SCALE = 51, CL_DNNL_ARG_SHIFT = 52,
        CL_DNNL_ARG_DIFF_SCALE = 255, CL_DNNL_ARG_DIFF_SHIFT = 256,
        CL_DNNL_Q_IMPL_INFO_STR = 8, CL_MM_MAX_DIMS = 6,
    };

    typedef void *cl_h;              /* any oneDNN object */
    typedef const void *cl_ch;
    typedef int64_t cl_dims[12];
    typedef struct { int arg; cl_h memory; } cl_dnnl_arg;

    static struct {
        int (*engine_create)(cl_h *, int, size_t);
        int (*stream_create)(cl_h *, cl_h, unsigned);
        int (*stream_wait)(cl_h);
        int (*stream_destroy)(cl_h);
        int (*md_create)(cl_h *, int, const int64_t *, int, int);
        int (*md_create_strided)(cl_h *, int, const int64_t *, int,
                                 const int64_t *);
        int (*md_destroy)(cl_h);
        int (*md_equal)(cl_ch, cl_ch);
        size_t (*md_size)(cl_ch);
        int (*memory_create)(cl_h *, cl_ch, cl_h, void *);
        int (*memory_destroy)(cl_h);
        int (*attr_create)(cl_h *);
        int (*attr_destroy)(cl_h);
        int (*attr_scratchpad)(cl_h, int);
        int (*conv_fwd)(cl_h *, cl_h, int, int, cl_ch, cl_ch, cl_ch, cl_ch,
                        const int64_t *, const int64_t *, const int64_t *,
                        const int64_t *, cl_ch);
        int (*conv_bwd_data)(cl_h *, cl_h, int, cl_ch, cl_ch, cl_ch,
                             const int64_t *, const int64_t *, const int64_t *,
                             const int64_t *, cl_ch, cl_ch);
        int (*conv_bwd_weights)(cl_h *, cl_h, int, cl_ch, cl_ch, cl_ch, cl_ch,
                                const int64_t *, const int64_t *,
                                const int64_t *, const int64_t *, cl_ch, cl_ch);
        int (*bn_fwd)(cl_h *, cl_h, int, cl_ch, cl_ch, float, unsigned, cl_ch);
        int (*bn_bwd)(cl_h *, cl_h, int, cl_ch, cl_ch, cl_ch, float, unsigned,
                      cl_ch, cl_ch);
        int (*matmul)(cl_h *, cl_h, cl_ch, cl_ch, cl_ch, cl_ch, cl_ch);
        int (*reorder_pd)(cl_h *, cl_ch, cl_h, cl_ch, cl_h, cl_ch);
        int (*pd_query)(cl_ch, int, int, void *);
        cl_ch (*query_md)(cl_ch, int, int);
        int (*pd_destroy)(cl_h);
        int (*primitive_create)(cl_h *, cl_ch);
        int (*execute)(cl_ch, cl_h, int, const cl_dnnl_arg *);
        int (*primitive_destroy)(cl_h);
        cl_h engine;
    } cl_dnnl;

    /* A stream of the engine: one per call, since a stream is not to be used
     * by two threads at once. */
    static int cl_dnnl_stream(cl_h *stream) {
        return cl_dnnl.stream_create(stream, cl_dnnl.engine,
                                     CL_DNNL_STREAM_DEFAULT);
    }

    /* 1 when the library at `path` loads, has every function and makes a CPU
     * engine and stream; 0 (the library unloaded), with `why` set, when not. */
    static int cl_dnnl_open(const char *path, const char **why) {
        void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (lib == NULL) { *why = "not found"; return 0; }
        #define CL_SYM(field, name) \\
            if ((*(void **)&cl_dnnl.field = dlsym(lib, name)) == NULL) { \\
                *why = "a function is missing (not oneDNN 3)"; \\
                dlclose(lib); return 0; }
        CL_SYM(engine_create, "dnnl_engine_create")
        CL_SYM(stream_create, "dnnl_stream_create")
        CL_SYM(stream_wait, "dnnl_stream_wait")
        CL_SYM(stream_destroy, "dnnl_stream_destroy")
        CL_SYM(md_create, "dnnl_memory_desc_create_with_tag")
        CL_SYM(md_create_strided, "dnnl_memory_desc_create_with_strides")
        CL_SYM(md_destroy, "dnnl_memory_desc_destroy")
        CL_SYM(md_equal, "dnnl_memory_desc_equal")
        CL_SYM(md_size, "dnnl_memory_desc_get_size")
        CL_SYM(memory_create, "dnnl_memory_create")
        CL_SYM(memory_destroy, "dnnl_memory_destroy")
        CL_SYM(attr_create, "dnnl_primitive_attr_create")
        CL_SYM(attr_destroy, "dnnl_primitive_attr_destroy")
        CL_SYM(attr_scratchpad, "dnnl_primitive_attr_set_scratchpad_mode")
        CL_SYM(conv_fwd, "dnnl_convolution_forward_primitive_desc_create")
        CL_SYM(conv_bwd_data,
               "dnnl_convolution_backward_data_primitive_desc_create")
        CL_SYM(conv_bwd_weights,
               "dnnl_convolution_backward_weights_primitive_desc_create")
        CL_SYM(bn_fwd, "dnnl_batch_normalization_forward_primitive_desc_create")
        CL_SYM(bn_bwd, "dnnl_batch_normalization_backward_primitive_desc_create")
        CL_SYM(matmul, "dnnl_matmul_primitive_desc_create")
        CL_SYM(reorder_pd, "dnnl_reorder_primitive_desc_create")
        CL_SYM(pd_query, "dnnl_primitive_desc_query")
        CL_SYM(query_md, "dnnl_primitive_desc_query_md")
        CL_SYM(pd_destroy, "dnnl_primitive_desc_destroy")
        CL_SYM(primitive_create, "dnnl_primitive_create")
        CL_SYM(execute, "dnnl_primitive_execute")
        CL_SYM(primitive_destroy, "dnnl_primitive_destroy")
        #undef CL_SYM
        if (cl_dnnl.engine_create(&cl_dnnl.engine, CL_DNNL_CPU, 0) != 0) {
            *why = "it makes no CPU engine (a build for another runtime)";
            dlclose(lib); return 0;
        }
        cl_h stream;
        if (cl_dnnl_stream(&stream) != 0) {
            *why = "it makes no CPU stream";
            dlclose(lib); return 0;
        }
        cl_dnnl.stream_destroy(stream);
        /* the library stays loaded for the life of the process */
        return 1;
    }

    /* What a plan computes: out = f(in0, in1) (+ bias). */
    enum { CL_CONV_FWD = 0, CL_CONV_BWD_DATA = 1, CL_CONV_BWD_WEIGHTS = 2 };

    typedef struct {
        cl_h pd, prim;        /* the convolution */
        cl_h plain[3];        /* plain layouts of in0, in1, out */
        cl_ch chosen[3];      /* the convolution's layouts of them (in pd) */
        cl_h reorder[3];      /* to chosen (inputs) or from it (out); or NULL */
        cl_h bias;            /* plain layout of the bias, or NULL */
        int args[3];
        size_t scratch;
    } cl_dnnl_plan;

    static cl_h cl_dnnl_reorder(cl_ch from, cl_ch to) {
        cl_h pd = NULL, prim = NULL;
        if (cl_dnnl.reorder_pd(&pd, from, cl_dnnl.engine, to, cl_dnnl.engine,
                               NULL) != 0)
            return NULL;
        if (cl_dnnl.primitive_create(&prim, pd) != 0)
            prim = NULL;
        cl_dnnl.pd_destroy(pd);
        return prim;
    }

    static void cl_dnnl_plan_free(cl_dnnl_plan *p) {
        if (p == NULL) return;
        if (p->prim) cl_dnnl.primitive_destroy(p->prim);
        if (p->pd) cl_dnnl.pd_destroy(p->pd);
        for (int i = 0; i < 3; i++) {
            if (p->reorder[i]) cl_dnnl.primitive_destroy(p->reorder[i]);
            if (p->plain[i]) cl_dnnl.md_destroy(p->plain[i]);
        }
        if (p->bias) cl_dnnl.md_destroy(p->bias);
        free(p);
    }

    /* The plan of a convolution of x (n, c, h, w) by filters
     * (g, o / g, c / g, kh, kw) into y (n, o, oh, ow), of kind `kind`; NULL
     * where oneDNN refuses the problem. `dims` holds the shapes of x, of the
     * filters and of y (4 + 5 + 4 values); `geom` strides, dilations (0 for
     * none, as oneDNN counts them), left and right paddings (2 each). */
    static cl_dnnl_plan *cl_dnnl_plan_new(int kind, const int64_t *dims,
                                          const int64_t *geom, int with_bias) {
        cl_dnnl_plan *p = (cl_dnnl_plan *)calloc(1, sizeof(cl_dnnl_plan));
        cl_h any[3] = {NULL, NULL, NULL}, attr = NULL, hint = NULL;
        cl_h x_plain = NULL, w_plain = NULL, y_plain = NULL;
        int ok = p != NULL;
        const int64_t *xd = dims, *wd = dims + 4, *yd = dims + 9;
        int wn = wd[0] == 1 ? 4 : 5;       /* one group: OIHW */
        const int64_t *wdims = wd[0] == 1 ? wd + 1 : wd;
        int wtag = wn == 4 ? CL_DNNL_TAG_ABCD : CL_DNNL_TAG_ABCDE;
        const int64_t *st = geom, *dl = geom + 2, *pl = geom + 4, *pr = geom + 6;
        ok = ok && cl_dnnl.md_create(&x_plain, 4, xd, CL_DNNL_F32,
                                     CL_DNNL_TAG_ABCD) == 0;
        ok = ok && cl_dnnl.md_create(&w_plain, wn, wdims, CL_DNNL_F32, wtag) == 0;
        ok = ok && cl_dnnl.md_create(&y_plain, 4, yd, CL_DNNL_F32,
                                     CL_DNNL_TAG_ABCD) == 0;
        ok = ok && cl_dnnl.md_create(&any[0], 4, xd, CL_DNNL_F32,
                                     CL_DNNL_TAG_ANY) == 0;
        ok = ok && cl_dnnl.md_create(&any[1], wn, wdims, CL_DNNL_F32,
                                     CL_DNNL_TAG_ANY) == 0;
        ok = ok && cl_dnnl.md_create(&any[2], 4, yd, CL_DNNL_F32,
                                     CL_DNNL_TAG_ANY) == 0;
        if (ok && with_bias)
            ok = cl_dnnl.md_create(&p->bias, 1, yd + 1, CL_DNNL_F32,
                                   CL_DNNL_TAG_A) == 0;
        ok = ok && cl_dnnl.attr_create(&attr) == 0
             && cl_dnnl.attr_scratchpad(attr, CL_DNNL_SCRATCHPAD_USER) == 0;
        /* the forward: the problem itself (kind FWD), or the backward's hint */
        ok = ok && cl_dnnl.conv_fwd(&hint, cl_dnnl.engine, CL_DNNL_FWD_TRAINING,
                                    CL_DNNL_CONV_DIRECT, any[0], any[1],
                                    p->bias, any[2], st, dl, pl, pr, attr) == 0;
        int q[3];
        if (ok && kind == CL_CONV_FWD) {
            p->pd = hint; hint = NULL;
            p->plain[0] = x_plain; p->plain[1] = w_plain; p->plain[2] = y_plain;
            q[0] = CL_DNNL_Q_SRC; q[1] = CL_DNNL_Q_WEIGHTS; q[2] = CL_DNNL_Q_DST;
            p->args[0] = CL_DNNL_ARG_SRC; p->args[1] = CL_DNNL_ARG_WEIGHTS;
            p->args[2] = CL_DNNL_ARG_DST;
        } else if (ok && kind == CL_CONV_BWD_DATA) {
            ok = cl_dnnl.conv_bwd_data(&p->pd, cl_dnnl.engine,
                                       CL_DNNL_CONV_DIRECT, any[0], any[1],
                                       any[2], st, dl, pl, pr, hint, attr) == 0;
            p->plain[0] = y_plain; p->plain[1] = w_plain; p->plain[2] = x_plain;
            q[0] = CL_DNNL_Q_DIFF_DST; q[1] = CL_DNNL_Q_WEIGHTS;
            q[2] = CL_DNNL_Q_DIFF_SRC;
            p->args[0] = CL_DNNL_ARG_DIFF_DST; p->args[1] = CL_DNNL_ARG_WEIGHTS;
            p->args[2] = CL_DNNL_ARG_DIFF_SRC;
        } else if (ok) {
            ok = cl_dnnl.conv_bwd_weights(&p->pd, cl_dnnl.engine,
                                          CL_DNNL_CONV_DIRECT, any[0], any[1],
                                          NULL, any[2], st, dl, pl, pr, hint,
                                          attr) == 0;
            p->plain[0] = x_plain; p->plain[1] = y_plain; p->plain[2] = w_plain;
            q[0] = CL_DNNL_Q_SRC; q[1] = CL_DNNL_Q_DIFF_DST;
            q[2] = CL_DNNL_Q_DIFF_WEIGHTS;
            p->args[0] = CL_DNNL_ARG_SRC; p->args[1] = CL_DNNL_ARG_DIFF_DST;
            p->args[2] = CL_DNNL_ARG_DIFF_WEIGHTS;
        }
        if (ok) {
            x_plain = w_plain = y_plain = NULL;   /* owned by the plan now */
            ok = cl_dnnl.primitive_create(&p->prim, p->pd) == 0;
            p->scratch = cl_dnnl.md_size(
                cl_dnnl.query_md(p->pd, CL_DNNL_Q_SCRATCHPAD, 0));
        }
        for (int i = 0; ok && i < 3; i++) {
            p->chosen[i] = cl_dnnl.query_md(p->pd, q[i], 0);
            if (cl_dnnl.md_equal(p->chosen[i], p->plain[i]))
                continue;
            p->reorder[i] = i < 2 ? cl_dnnl_reorder(p->plain[i], p->chosen[i])
                                  : cl_dnnl_reorder(p->chosen[i], p->plain[i]);
            ok = p->reorder[i] != NULL;
        }
        if (x_plain) cl_dnnl.md_destroy(x_plain);
        if (w_plain) cl_dnnl.md_destroy(w_plain);
        if (y_plain) cl_dnnl.md_destroy(y_plain);
        for (int i = 0; i < 3; i++)
            if (any[i]) cl_dnnl.md_destroy(any[i]);
        if (attr) cl_dnnl.attr_destroy(attr);
        if (hint) cl_dnnl.pd_destroy(hint);
        if (!ok) { cl_dnnl_plan_free(p); return NULL; }
        return p;
    }

    static int cl_dnnl_memory(cl_h *m, cl_ch md, void *data) {
        return cl_dnnl.memory_create(m, md, cl_dnnl.engine, data);
    }

    /* Batch normalization over the axes but 1 of plain (n, c) or (n, c, h,
     * w) data, with scale and shift: the forward (training: it computes the
     * mean and biased variance) and its backward. */
    typedef struct {
        cl_h fwd_pd, fwd, bwd_pd, bwd;
        cl_h data, stat;      /* plain layouts of x and of a statistic */
    } cl_dnnl_bn;

    static void cl_dnnl_bn_free(cl_dnnl_bn *p) {
        if (p == NULL) return;
        if (p->fwd) cl_dnnl.primitive_destroy(p->fwd);
        if (p->bwd) cl_dnnl.primitive_destroy(p->bwd);
        if (p->fwd_pd) cl_dnnl.pd_destroy(p->fwd_pd);
        if (p->bwd_pd) cl_dnnl.pd_destroy(p->bwd_pd);
        if (p->data) cl_dnnl.md_destroy(p->data);
        if (p->stat) cl_dnnl.md_destroy(p->stat);
        free(p);
    }

    static cl_dnnl_bn *cl_dnnl_bn_new(int ndims, const int64_t *dims,
                                      float eps) {
        cl_dnnl_bn *p = (cl_dnnl_bn *)calloc(1, sizeof(cl_dnnl_bn));
        cl_h attr = NULL;
        unsigned flags = CL_DNNL_USE_SCALE | CL_DNNL_USE_SHIFT;
        int ok = p != NULL
            && cl_dnnl.md_create(&p->data, ndims, dims, CL_DNNL_F32,
                                 ndims == 2 ? CL_DNNL_TAG_AB
                                            : CL_DNNL_TAG_ABCD) == 0
            && cl_dnnl.md_create(&p->stat, 1, dims + 1, CL_DNNL_F32,
                                 CL_DNNL_TAG_A) == 0
            && cl_dnnl.attr_create(&attr) == 0
            && cl_dnnl.attr_scratchpad(attr, CL_DNNL_SCRATCHPAD_USER) == 0
            && cl_dnnl.bn_fwd(&p->fwd_pd, cl_dnnl.engine, CL_DNNL_FWD_TRAINING,
                              p->data, p->data, eps, flags, attr) == 0
            && cl_dnnl.bn_bwd(&p->bwd_pd, cl_dnnl.engine, CL_DNNL_BACKWARD,
                              p->data, p->data, p->data, eps, flags,
                              p->fwd_pd, attr) == 0
            && cl_dnnl.primitive_create(&p->fwd, p->fwd_pd) == 0
            && cl_dnnl.primitive_create(&p->bwd, p->bwd_pd) == 0;
        if (attr) cl_dnnl.attr_destroy(attr);
        if (!ok) { cl_dnnl_bn_free(p); return NULL; }
        return p;
    }

    /* Runs `prim` (of descriptor `pd`) on n plain arrays: args[i] is the
     * argument of ptrs[i], of layout `data` when big[i], else `stat`. 0 on
     * success. */
    static int cl_dnnl_bn_exec(const cl_dnnl_bn *p, cl_h prim, cl_ch pd, int n,
                               const int *args, const int *big,
                               void *const *ptrs) {
        cl_dnnl_arg a[10];
        void *scratch = NULL;
        cl_h stream = NULL;
        int made = 0, err = cl_dnnl_stream(&stream);
        size_t bytes = cl_dnnl.md_size(cl_dnnl.query_md(pd,
                                                       CL_DNNL_Q_SCRATCHPAD, 0));
        for (int i = 0; !err && i < n; i++) {
            a[made].arg = args[i];
            err = cl_dnnl_memory(&a[made].memory, big[i] ? p->data : p->stat,
                                 ptrs[i]);
            if (!err) made++;
        }
        if (!err && bytes) {
            scratch = aligned_alloc(64, (bytes + 63) / 64 * 64);
            a[made].arg = CL_DNNL_ARG_SCRATCHPAD;
            err = scratch == NULL || cl_dnnl_memory(
                &a[made].memory, cl_dnnl.query_md(pd, CL_DNNL_Q_SCRATCHPAD, 0),
                scratch) != 0;
            if (!err) made++;
        }
        if (!err)
            err = cl_dnnl.execute(prim, stream, made, a)
                  || cl_dnnl.stream_wait(stream);
        for (int i = 0; i < made; i++)
            cl_dnnl.memory_destroy(a[i].memory);
        if (stream) cl_dnnl.stream_destroy(stream);
        free(scratch);
        return err;
    }

    /* y = gamma (x - mean) / sqrt(var + eps) + beta, mean and var out. */
    static int cl_dnnl_bn_forward(const cl_dnnl_bn *p, const float *x,
                                  const float *gamma, const float *beta,
                                  float *y, float *mean, float *var) {
        int args[6] = {CL_DNNL_ARG_SRC, CL_DNNL_ARG_SCALE, CL_DNNL_ARG_SHIFT,
                       CL_DNNL_ARG_DST, CL_DNNL_ARG_MEAN, CL_DNNL_ARG_VARIANCE};
        int big[6] = {1, 0, 0, 1, 0, 0};
        void *ptrs[6] = {(void *)x, (void *)gamma, (void *)beta, y, mean, var};
        return cl_dnnl_bn_exec(p, p->fwd, p->fwd_pd, 6, args, big, ptrs);
    }

    /* The gradients of x, gamma and beta from gy. */
    static int cl_dnnl_bn_backward(const cl_dnnl_bn *p, const float *x,
                                   const float *gamma, const float *mean,
                                   const float *var, const float *gy,
                                   float *gx, float *ggamma, float *gbeta) {
        int args[8] = {CL_DNNL_ARG_SRC, CL_DNNL_ARG_SCALE, CL_DNNL_ARG_MEAN,
                       CL_DNNL_ARG_VARIANCE, CL_DNNL_ARG_DIFF_DST,
                       CL_DNNL_ARG_DIFF_SRC, CL_DNNL_ARG_DIFF_SCALE,
                       CL_DNNL_ARG_DIFF_SHIFT};
        int big[8] = {1, 0, 0, 0, 1, 1, 0, 0};
        void *ptrs[8] = {(void *)x, (void *)gamma, (void *)mean, (void *)var,
                         (void *)gy, gx, ggamma, gbeta};
        return cl_dnnl_bn_exec(p, p->bwd, p->bwd_pd, 8, args, big, ptrs);
    }

    static int cl_dnnl_reorder_run(cl_h prim, cl_h stream, cl_h from,
                                   cl_h to) {
        cl_dnnl_arg a[2] = {{CL_DNNL_ARG_FROM, from}, {CL_DNNL_ARG_TO, to}};
        return cl_dnnl.execute(prim, stream, 2, a);
    }

    #define CL_ROUND64(n) (((n) + 63) / 64 * 64)

    /* Bytes of the workspace that cl_dnnl_run takes: the inputs and the
     * output in the convolution's layouts where they differ from the plain
     * ones, and the scratchpad, each rounded up to 64. */
    static size_t cl_dnnl_plan_work(const cl_dnnl_plan *p) {
        size_t n = CL_ROUND64(p->scratch);
        for (int i = 0; i < 3; i++)
            if (p->reorder[i])
                n += CL_ROUND64(cl_dnnl.md_size(p->chosen[i]));
        return n;
    }

    /* Runs the plan: out = f(in0, in1) (+ bias), all in plain layouts, the
     * reordered arrays and the scratchpad in `work` (64-byte aligned, of
     * cl_dnnl_plan_work bytes). 0 on success; nonzero (out may be partly
     * written) when oneDNN fails. */
    static int cl_dnnl_run(const cl_dnnl_plan *p, const float *in0,
                           const float *in1, const float *bias, float *out,
                           char *work) {
        void *data[3] = {(void *)in0, (void *)in1, out};
        cl_h plain[3] = {NULL, NULL, NULL}, used[3] = {NULL, NULL, NULL};
        cl_h mb = NULL, ms = NULL, stream = NULL;
        int err = cl_dnnl_stream(&stream);
        for (int i = 0; !err && i < 3; i++) {
            err = cl_dnnl_memory(&plain[i], p->plain[i], data[i]);
            if (err || p->reorder[i] == NULL) { used[i] = plain[i]; continue; }
            err = cl_dnnl_memory(&used[i], p->chosen[i], work) != 0;
            work += CL_ROUND64(cl_dnnl.md_size(p->chosen[i]));
            if (!err && i < 2)
                err = cl_dnnl_reorder_run(p->reorder[i], stream, plain[i],
                                          used[i]);
        }
        if (!err && p->scratch)
            err = cl_dnnl_memory(&ms, cl_dnnl.query_md(
                      p->pd, CL_DNNL_Q_SCRATCHPAD, 0), work) != 0;
        if (!err && p->bias)
            err = cl_dnnl_memory(&mb, p->bias, (void *)bias);
        if (!err) {
            cl_dnnl_arg a[5];
            int n = 0;
            for (int i = 0; i < 3; i++) {
                a[n].arg = p->args[i]; a[n].memory = used[i]; n++;
            }
            if (ms) { a[n].arg = CL_DNNL_ARG_SCRATCHPAD; a[n].memory = ms; n++; }
            if (mb) { a[n].arg = CL_DNNL_ARG_BIAS; a[n].memory = mb; n++; }
            err = cl_dnnl.execute(p->prim, stream, n, a);
        }
        if (!err && p->reorder[2])
            err = cl_dnnl_reorder_run(p->reorder[2], stream, used[2], plain[2]);
        if (!err)
            err = cl_dnnl.stream_wait(stream);
        if (stream) cl_dnnl.stream_destroy(stream);
        for (int i = 0; i < 3; i++) {
            if (used[i] && used[i] != plain[i]) cl_dnnl.memory_destroy(used[i]);
            if (plain[i]) cl_dnnl.memory_destroy(plain[i]);
        }
        if (mb) cl_dnnl.memory_destroy(mb);
        if (ms) cl_dnnl.memory_destroy(ms);
        return err;
    }

    /* A matrix product c = a b (+ bias) of nd-dimensional stacks: a
     * (..., m, k) and b (..., k, n) of any positive strides (a transposed
     * operand is a swap of its last two strides), batch axes equal or 1 in
     * one of them; c (..., m, n) contiguous; the bias (n,) added to each row.
     * Scratchpad: the library's own. */
    typedef struct {
        cl_h pd, prim;
        cl_h md[4];           /* a, b, c, bias (NULL without) */
    } cl_dnnl_mm;

    static void cl_dnnl_mm_free(cl_dnnl_mm *p) {
        if (p == NULL) return;
        if (p->prim) cl_dnnl.primitive_destroy(p->prim);
        if (p->pd) cl_dnnl.pd_destroy(p->pd);
        for (int i = 0; i < 4; i++)
            if (p->md[i]) cl_dnnl.md_destroy(p->md[i]);
        free(p);
    }

    /* A contiguous layout of `dims` (nd values), in `strides`. */
    static void cl_contiguous(int nd, const int64_t *dims, int64_t *strides) {
        int64_t s = 1;
        for (int i = nd - 1; i >= 0; i--) {
            strides[i] = s;
            s *= dims[i] > 0 ? dims[i] : 1;
        }
    }

    /* `dims` holds the shapes of a, b and c (nd values each), `strides`
     * those of a and b in elements. NULL where oneDNN refuses the problem or
     * would run it on its reference (unoptimized) kernel. */
    static cl_dnnl_mm *cl_dnnl_mm_new(int nd, const int64_t *dims,
                                      const int64_t *strides, int with_bias) {
        cl_dnnl_mm *p = (cl_dnnl_mm *)calloc(1, sizeof(cl_dnnl_mm));
        int64_t cs[CL_MM_MAX_DIMS], bd[CL_MM_MAX_DIMS], bs[CL_MM_MAX_DIMS];
        const char *impl = NULL;
        int ok = p != NULL && nd >= 2 && nd <= CL_MM_MAX_DIMS;
        if (!ok) { free(p); return NULL; }
        cl_contiguous(nd, dims + 2 * nd, cs);
        for (int i = 0; i < nd; i++) bd[i] = i == nd - 1 ? dims[3 * nd - 1] : 1;
        cl_contiguous(nd, bd, bs);
        ok = cl_dnnl.md_create_strided(&p->md[0], nd, dims, CL_DNNL_F32,
                                       strides) == 0
             && cl_dnnl.md_create_strided(&p->md[1], nd, dims + nd,
                                          CL_DNNL_F32, strides + nd) == 0
             && cl_dnnl.md_create_strided(&p->md[2], nd, dims + 2 * nd,
                                          CL_DNNL_F32, cs) == 0;
        if (ok && with_bias)
            ok = cl_dnnl.md_create_strided(&p->md[3], nd, bd, CL_DNNL_F32,
                                           bs) == 0;
        ok = ok && cl_dnnl.matmul(&p->pd, cl_dnnl.engine, p->md[0], p->md[1],
                                  p->md[3], p->md[2], NULL) == 0
             && cl_dnnl.pd_query(p->pd, CL_DNNL_Q_IMPL_INFO_STR, 0,
                                 &impl) == 0
             && impl != NULL && strncmp(impl, "ref", 3) != 0
             && cl_dnnl.primitive_create(&p->prim, p->pd) == 0;
        if (!ok) { cl_dnnl_mm_free(p); return NULL; }
        return p;
    }

    /* Runs the product on a, b (and bias) into c. 0 on success. */
    static int cl_dnnl_mm_run(const cl_dnnl_mm *p, const float *a,
                              const float *b, const float *bias, float *c) {
        int args[4] = {CL_DNNL_ARG_SRC, CL_DNNL_ARG_WEIGHTS, CL_DNNL_ARG_DST,
                       CL_DNNL_ARG_BIAS};
        void *data[4] = {(void *)a, (void *)b, c, (void *)bias};
        cl_dnnl_arg m[4];
        cl_h stream = NULL;
        int made = 0, err = cl_dnnl_stream(&stream);
        for (int i = 0; !err && i < 4 && p->md[i]; i++) {
            m[i].arg = args[i];
            err = cl_dnnl_memory(&m[i].memory, p->md[i], data[i]);
            if (!err) made++;
        }
        if (!err)
            err = cl_dnnl.execute(p->prim, stream, made, m)
                  || cl_dnnl.stream_wait(stream);
        for (int i = 0; i < made; i++)
            cl_dnnl.memory_destroy(m[i].memory);
        if (stream) cl_dnnl.stream_destroy(stream);
        return err;
    }
    """
    int CL_CONV_FWD, CL_CONV_BWD_DATA, CL_CONV_BWD_WEIGHTS
    ctypedef struct cl_dnnl_plan:
        pass
    int cl_dnnl_open(const char* path, const char** why)
    cl_dnnl_plan* cl_dnnl_plan_new(int kind, const int64_t* dims,
                                   const int64_t* geom, int with_bias)
    void cl_dnnl_plan_free(cl_dnnl_plan* p)
    size_t cl_dnnl_plan_work(const cl_dnnl_plan* p)
    int cl_dnnl_run(const cl_dnnl_plan* p, const float* in0, const float* in1,
                    const float* bias, float* out, char* work)
    ctypedef struct cl_dnnl_bn:
        pass
    cl_dnnl_bn* cl_dnnl_bn_new(int ndims, const int64_t* dims, float eps)
    void cl_dnnl_bn_free(cl_dnnl_bn* p)
    int cl_dnnl_bn_forward(const cl_dnnl_bn* p, const float* x,
                           const float* gamma, const float* beta, float* y,
                           float* mean, float* var)
    int cl_dnnl_bn_backward(const cl_dnnl_bn* p, const float* x,
                            const float* gamma, const float* mean,
                            const float* var, const float* gy, float* gx,
                            float* ggamma, float* gbeta)
    enum: CL_MM_MAX_DIMS
    ctypedef struct cl_dnnl_mm:
        pass
    cl_dnnl_mm* cl_dnnl_mm_new(int nd, const int64_t* dims,
                               const int64_t* strides, int with_bias)
    void cl_dnnl_mm_free(cl_dnnl_mm* p)
    int cl_dnnl_mm_run(const cl_dnnl_mm* p, const float* a, const float* b,
                       const float* bias, float* c)


cdef class _Plan:
    """The primitives of one convolution problem (freed with the object)."""
    cdef cl_dnnl_plan* plan

    def __dealloc__(self):
        cl_dnnl_plan_free(self.plan)


cdef class _MatmulPlan:
    """The primitive of one matrix product (freed with the object)."""
    cdef cl_dnnl_mm* plan

    def __dealloc__(self):
        cl_dnnl_mm_free(self.plan)


cdef class _NormPlan:
    """The primitives of one batch normalization (freed with the object)."""
    cdef cl_dnnl_bn* plan

    def __dealloc__(self):
        cl_dnnl_bn_free(self.plan)


# None before the first look for the library, then '' (found) or the reason
# it is not used
cdef object _state = None
cdef dict _plans = {}
# idle workspaces of the convolutions (uint8 arrays): a call takes one and
# gives it back, so that the reordered arrays are not allocated and their
# pages faulted in at each call
cdef list _idle = []


def _candidates():
    path = os.environ.get('CHAINERLITE_ONEDNN_LIBRARY')
    if path:
        return [path]
    return [
        os.path.join(prefix, 'lib', 'libdnnl.so.3')
        for prefix in dict.fromkeys((sys.prefix, sys.base_prefix))
    ] + ['libdnnl.so.3']


cdef bint _load():
    global _state
    cdef const char* why = NULL
    if _state is not None:
        return not _state
    reasons = []
    if not sys.platform.startswith('linux'):
        reasons.append('oneDNN is looked for on Linux only')
    else:
        for path in _candidates():
            if cl_dnnl_open(os.fsencode(path), &why):
                _state = ''
                return True
            reasons.append('{}: {}'.format(path, why.decode()))
    _state = '; '.join(reasons)
    return False


def available():
    """Whether oneDNN was found and works (looked for on the first call)."""
    return _load()


def unavailable_reason():
    """Why oneDNN is not used ('' when it is)."""
    _load()
    return _state


cdef _Plan _plan(int kind, tuple dims, tuple geom, bint with_bias):
    # the cached plan of a problem, or None where oneDNN refuses it
    key = (kind, dims, geom, with_bias)
    plan = _plans.pop(key, None)
    cdef int64_t cdims[13]
    cdef int64_t cgeom[8]
    cdef int i
    if plan is None:
        for i in range(13):
            cdims[i] = dims[i]
        for i in range(8):
            cgeom[i] = geom[i]
        plan = _Plan()
        (<_Plan>plan).plan = cl_dnnl_plan_new(kind, cdims, cgeom, with_bias)
        if len(_plans) >= CACHE_SIZE:
            del _plans[next(iter(_plans))]
    # most recently used last; a refused problem is kept too (plan NULL)
    _plans[key] = plan
    return plan if (<_Plan>plan).plan != NULL else None


cdef bint _takes(a, int ndim):
    return (
        type(a) is cnp.ndarray
        and (<cnp.ndarray>a).descr.type_num == cnp.NPY_FLOAT32
        and (<cnp.ndarray>a).ndim == ndim
        and (<cnp.ndarray>a).size > 0
    )


cdef bint _pair(v, int least):
    # a pair of ints, each at least `least`
    return (
        isinstance(v, tuple) and len(v) == 2
        and all(_int(i) and i >= least for i in v)
    )


cdef bint _int(v):
    return isinstance(v, (int, numpy.integer)) and not isinstance(v, bool)


cdef tuple _geometry(x_dims, k_dims, y_dims, stride, pad, dilate):
    # strides, dilations (oneDNN counts 0 for none), left and right paddings;
    # the right padding makes floor((in + pl + pr - span) / s) + 1 = out,
    # Chainer's cover_all included, or None where no padding does
    if not (_pair(stride, 1) and _pair(dilate, 1) and _pair(pad, 0)
            and _pair(tuple(y_dims), 1)):
        return None
    right = []
    for i in range(2):
        span = (k_dims[i] - 1) * dilate[i] + 1
        r = max((y_dims[i] - 1) * stride[i] + span - x_dims[i] - pad[i], 0)
        if (x_dims[i] + pad[i] + r - span) // stride[i] + 1 != y_dims[i]:
            return None
        right.append(r)
    return (
        stride[0], stride[1], dilate[0] - 1, dilate[1] - 1,
        pad[0], pad[1], right[0], right[1],
    )


cdef object _run(int kind, x_shape, w_shape, y_shape, groups, stride, pad,
                 dilate, in0, in1, bias, out_shape):
    # out of shape out_shape from the plan of the problem, or None
    if not _load():
        return None
    if not _int(groups) or groups < 1 or w_shape[0] % groups:
        return None
    if x_shape[1] != w_shape[1] * groups:
        return None
    geom = _geometry(x_shape[2:], w_shape[2:], y_shape[2:], stride, pad, dilate)
    if geom is None:
        return None
    w_dims = (groups, w_shape[0] // groups) + tuple(w_shape[1:])
    dims = tuple(x_shape) + w_dims + tuple(y_shape)
    cdef _Plan plan = _plan(kind, dims, geom, bias is not None)
    if plan is None:
        return None
    cdef cnp.ndarray a = numpy.ascontiguousarray(in0)
    cdef cnp.ndarray w = numpy.ascontiguousarray(in1)
    cdef cnp.ndarray b
    cdef const float* pb = NULL
    if bias is not None:
        b = numpy.ascontiguousarray(bias)
        pb = <const float*>cnp.PyArray_DATA(b)
    cdef cnp.ndarray out = numpy.empty(out_shape, numpy.float32)
    cdef const float* p0 = <const float*>cnp.PyArray_DATA(a)
    cdef const float* p1 = <const float*>cnp.PyArray_DATA(w)
    cdef float* po = <float*>cnp.PyArray_DATA(out)
    cdef cnp.ndarray work = _take(cl_dnnl_plan_work(plan.plan))
    cdef char* pw = <char*>cnp.PyArray_DATA(work)
    pw += (64 - <size_t>pw % 64) % 64
    cdef int err
    with nogil:
        err = cl_dnnl_run(plan.plan, p0, p1, pb, po, pw)
    _idle.append(work)
    return out if err == 0 else None


cdef cnp.ndarray _take(size_t nbytes):
    # an idle workspace with nbytes from a 64-byte boundary, or a new one;
    # the idle ones too small are dropped
    cdef cnp.ndarray buf
    while _idle:
        buf = _idle.pop()
        if <size_t>buf.shape[0] >= nbytes + 64:
            return buf
    return numpy.empty(nbytes + 64, numpy.uint8)


def conv2d(x, W, b, outs, stride, pad, dilate, groups):
    """The convolution (cross-correlation) of ``x`` (n, c, h, w) by ``W``
    (o, c / groups, kh, kw) plus the bias ``b`` (o,) or None, of output
    lengths ``outs``; stride, pad and dilate are pairs. A new array, or None
    where oneDNN is absent or does not take the case."""
    if not (_takes(x, 4) and _takes(W, 4)):
        return None
    if b is not None and not (_takes(b, 1) and b.shape[0] == W.shape[0]):
        return None
    y_shape = (x.shape[0], W.shape[0]) + tuple(outs)
    return _run(CL_CONV_FWD, x.shape, W.shape, y_shape, groups, stride, pad,
                dilate, x, W, b, y_shape)


def conv2d_transpose(gy, W, dims, stride, pad, dilate, groups):
    """The gradient of :func:`conv2d`'s input: ``gy`` (n, o, oh, ow) by the
    filters ``W`` (o, c / groups, kh, kw) into images of lengths ``dims``;
    a new array (n, c, *dims), or None as :func:`conv2d`."""
    if not (_takes(gy, 4) and _takes(W, 4)):
        return None
    x_shape = (gy.shape[0], W.shape[1] * groups) + tuple(dims)
    return _run(CL_CONV_BWD_DATA, x_shape, W.shape, gy.shape, groups, stride,
                pad, dilate, gy, W, None, x_shape)


def conv2d_grad_weight(x, gy, ksize, stride, pad, dilate, groups):
    """The gradient of :func:`conv2d`'s filters, of lengths ``ksize``, from
    its input ``x`` and output gradient ``gy``; a new array
    (o, c / groups, *ksize), or None as :func:`conv2d`."""
    if not (_takes(x, 4) and _takes(gy, 4)):
        return None
    w_shape = (gy.shape[1], x.shape[1] // groups) + tuple(ksize)
    return _run(CL_CONV_BWD_WEIGHTS, x.shape, w_shape, gy.shape, groups, stride,
                pad, dilate, x, gy, None, w_shape)


cdef _NormPlan _norm_plan(tuple shape, float eps):
    # the cached plan of a batch normalization, or None where refused
    key = ('bn', shape, eps)
    plan = _plans.pop(key, None)
    cdef int64_t cdims[4]
    cdef int i
    if plan is None:
        for i in range(len(shape)):
            cdims[i] = shape[i]
        plan = _NormPlan()
        (<_NormPlan>plan).plan = cl_dnnl_bn_new(len(shape), cdims, eps)
        if len(_plans) >= CACHE_SIZE:
            del _plans[next(iter(_plans))]
    _plans[key] = plan
    return plan if (<_NormPlan>plan).plan != NULL else None


cdef bint _norm_takes(x, stats):
    # x (n, c) or (n, c, h, w) not empty, each of stats a float32 array of c
    if not ((_takes(x, 2) or _takes(x, 4)) and _load()):
        return False
    return all(_takes(a, 1) and a.shape[0] == x.shape[1] for a in stats)


cdef const float* _data(cnp.ndarray a):
    return <const float*>cnp.PyArray_DATA(a)


def batch_norm(x, gamma, beta, eps):
    """Batch normalization of ``x`` (n, c) or (n, c, h, w) over all its
    axes but 1, scaled by ``gamma`` and shifted by ``beta`` (c,):
    ``(y, mean, var)``, the statistics (c,) with the variance biased; or
    None where oneDNN is absent or does not take the case."""
    if not _norm_takes(x, (gamma, beta)):
        return None
    cdef _NormPlan plan = _norm_plan(x.shape, eps)
    if plan is None:
        return None
    cdef cnp.ndarray a = numpy.ascontiguousarray(x)
    cdef cnp.ndarray g = numpy.ascontiguousarray(gamma)
    cdef cnp.ndarray b = numpy.ascontiguousarray(beta)
    cdef cnp.ndarray y = numpy.empty(x.shape, numpy.float32)
    cdef cnp.ndarray mean = numpy.empty(x.shape[1], numpy.float32)
    cdef cnp.ndarray var = numpy.empty(x.shape[1], numpy.float32)
    cdef const float* pa = _data(a)
    cdef const float* pg = _data(g)
    cdef const float* pb = _data(b)
    cdef float* py = <float*>cnp.PyArray_DATA(y)
    cdef float* pm = <float*>cnp.PyArray_DATA(mean)
    cdef float* pv = <float*>cnp.PyArray_DATA(var)
    cdef int err
    with nogil:
        err = cl_dnnl_bn_forward(plan.plan, pa, pg, pb, py, pm, pv)
    return None if err else (y, mean, var)


def batch_norm_grad(x, gamma, mean, var, gy, eps):
    """The gradients ``(gx, ggamma, gbeta)`` of :func:`batch_norm` from its
    output's ``gy``, with the statistics it returned; or None as
    :func:`batch_norm`."""
    if not _norm_takes(x, (gamma, mean, var)):
        return None
    if not (_takes(gy, x.ndim) and gy.shape == x.shape):
        return None
    cdef _NormPlan plan = _norm_plan(x.shape, eps)
    if plan is None:
        return None
    arrays = [numpy.ascontiguousarray(a) for a in (x, gamma, mean, var, gy)]
    cdef const float* px = _data(arrays[0])
    cdef const float* pg = _data(arrays[1])
    cdef const float* pm = _data(arrays[2])
    cdef const float* pv = _data(arrays[3])
    cdef const float* pgy = _data(arrays[4])
    cdef cnp.ndarray gx = numpy.empty(x.shape, numpy.float32)
    cdef cnp.ndarray ggamma = numpy.empty(x.shape[1], numpy.float32)
    cdef cnp.ndarray gbeta = numpy.empty(x.shape[1], numpy.float32)
    cdef float* pgx = <float*>cnp.PyArray_DATA(gx)
    cdef float* pgg = <float*>cnp.PyArray_DATA(ggamma)
    cdef float* pgb = <float*>cnp.PyArray_DATA(gbeta)
    cdef int err
    with nogil:
        err = cl_dnnl_bn_backward(plan.plan, px, pg, pm, pv, pgy, pgx, pgg, pgb)
    return None if err else (gx, ggamma, gbeta)


cdef bint _strided_takes(a):
    # a float32 array oneDNN can read in place: aligned, not empty, of
    # non-negative strides
    if not (type(a) is cnp.ndarray
            and (<cnp.ndarray>a).descr.type_num == cnp.NPY_FLOAT32
            and (<cnp.ndarray>a).size > 0
            and cnp.PyArray_ISALIGNED(<cnp.ndarray>a)):
        return False
    return all(s >= 0 for s in a.strides)


cdef tuple _element_strides(a):
    # a's strides in elements; an axis of length 1 takes the stride a
    # contiguous layout would give it after the axes that follow
    strides = []
    inner = 1
    for n, s in zip(reversed(a.shape), reversed(a.strides)):
        s = s // 4 if n > 1 else inner
        strides.append(s)
        inner = s * n
    return tuple(reversed(strides))


cdef _MatmulPlan _matmul_plan(tuple shapes, tuple strides, bint with_bias):
    # the cached plan of a product, or None where refused
    key = ('mm', shapes, strides, with_bias)
    plan = _plans.pop(key, None)
    cdef int64_t cdims[3 * CL_MM_MAX_DIMS]
    cdef int64_t cstrides[2 * CL_MM_MAX_DIMS]
    cdef int i
    cdef int nd = len(shapes[0])
    if plan is None:
        for i in range(3 * nd):
            cdims[i] = shapes[i // nd][i % nd]
        for i in range(2 * nd):
            cstrides[i] = strides[i // nd][i % nd]
        plan = _MatmulPlan()
        (<_MatmulPlan>plan).plan = cl_dnnl_mm_new(nd, cdims, cstrides,
                                                  with_bias)
        if len(_plans) >= CACHE_SIZE:
            del _plans[next(iter(_plans))]
    _plans[key] = plan
    return plan if (<_MatmulPlan>plan).plan != NULL else None


#: The least number of multiply-adds of a product that :func:`product`
#: gives to oneDNN: below it, NumPy's BLAS call costs less than oneDNN's
#: per-call work (64 x 64 x 64: 2x NumPy's time; 128 x 128 x 128: 0.9x).
MIN_PRODUCT = 1 << 20
#: The most: above it OpenBLAS's large-matrix kernels are ahead (one
#: thread, products and both gradients of F.linear: 0.7-1.0x NumPy's time
#: up to a Transformer's 4096 x 256 x 1024, 1.0-1.3x on 2240 x 650 x 10000,
#: an LSTM language model's decoder, and on 2240 x 640 x 2560).
MAX_PRODUCT = 1 << 30
cdef Py_ssize_t _min_product = MIN_PRODUCT, _max_product = MAX_PRODUCT

# chainerlite's config, handed down by the engine when it is imported (a
# kernel imports nothing of chainerlite): until then no product goes to
# oneDNN
cdef object _config = None


cdef int follow_config(object config) except -1:
    """Makes :func:`chosen_matmul` read ``use_ideep`` from ``config``."""
    global _config
    _config = config
    return 0


cdef bint _mode_allows():
    # use_ideep 'auto' or 'always': products of any shape oneDNN takes
    if _config is None:
        return False
    mode = _config.use_ideep
    return mode == 'auto' or mode == 'always'


cdef object product(a, b, bias, bint transa, bint transb):
    # a @ b (+ bias), each matrix of a (of b) transposed first where transa
    # (transb), on oneDNN where use_ideep allows it and the product of
    # float32 NumPy arrays of the same number of axes has MIN_PRODUCT to
    # MAX_PRODUCT multiply-adds; else None
    if not (type(a) is cnp.ndarray and type(b) is cnp.ndarray):
        return None
    cdef cnp.ndarray ca = <cnp.ndarray>a
    cdef cnp.ndarray cb = <cnp.ndarray>b
    cdef int nd = ca.ndim
    if nd < 2 or cb.ndim != nd:
        return None
    if (ca.descr.type_num != cnp.NPY_FLOAT32
            or cb.descr.type_num != cnp.NPY_FLOAT32):
        return None
    cdef Py_ssize_t m = ca.shape[nd - 1] if transa else ca.shape[nd - 2]
    cdef Py_ssize_t n = cb.shape[nd - 2] if transb else cb.shape[nd - 1]
    # multiply-adds: the larger stack's elements by the other's matrix side
    cdef Py_ssize_t macs = max(cnp.PyArray_SIZE(ca) * n,
                               cnp.PyArray_SIZE(cb) * m)
    if macs < _min_product or macs > _max_product or not _mode_allows():
        return None
    return matmul(a, b, bias, transa, transb)


def chosen_matmul(a, b, bias=None, transa=False, transb=False):
    """:func:`matmul` where products go to oneDNN (``config.use_ideep``
    'auto' or 'always', float32 NumPy arrays of the same number of axes,
    :data:`MIN_PRODUCT` to :data:`MAX_PRODUCT` multiply-adds), else None."""
    return product(a, b, bias, transa, transb)


def matmul(a, b, bias=None, transa=False, transb=False):
    """The matrix product ``a @ b`` (plus ``bias`` on each row) of float32
    arrays ``a`` (..., m, k) and ``b`` (..., k, n) with the same number of
    axes (2 to 6), their batch axes equal or 1 in one of them, read in place
    with their strides (a transposed view costs no copy); each matrix of
    ``a`` (of ``b``) is transposed first where ``transa`` (``transb``);
    ``bias`` (n,) or None. A new C-contiguous float32 array, or None where
    oneDNN is absent or does not take the case (then the caller keeps its
    own path)."""
    if not (_strided_takes(a) and _strided_takes(b)):
        return None
    if transa:
        a = a.swapaxes(-1, -2)
    if transb:
        b = b.swapaxes(-1, -2)
    cdef int nd = a.ndim
    if nd < 2 or nd > CL_MM_MAX_DIMS or b.ndim != nd:
        return None
    if a.shape[nd - 1] != b.shape[nd - 2]:
        return None
    batch = []
    for i in range(nd - 2):
        m, n = a.shape[i], b.shape[i]
        if m != n and m != 1 and n != 1:
            return None
        batch.append(max(m, n))
    c_shape = tuple(batch) + (a.shape[nd - 2], b.shape[nd - 1])
    cdef cnp.ndarray vb
    cdef const float* pb = NULL
    if bias is not None:
        if not (_takes(bias, 1) and bias.shape[0] == c_shape[nd - 1]):
            return None
        vb = numpy.ascontiguousarray(bias)
        pb = _data(vb)
    if not _load():
        return None
    cdef _MatmulPlan plan = _matmul_plan(
        (a.shape, b.shape, c_shape),
        (_element_strides(a), _element_strides(b)), bias is not None)
    if plan is None:
        return None
    cdef cnp.ndarray c = numpy.empty(c_shape, numpy.float32)
    cdef const float* pa = _data(a)
    cdef const float* pw = _data(b)
    cdef float* pc = <float*>cnp.PyArray_DATA(c)
    cdef int err
    with nogil:
        err = cl_dnnl_mm_run(plan.plan, pa, pw, pb, pc)
    return None if err else c
