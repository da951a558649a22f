# cython: boundscheck=False, wraparound=False
# build: openmp
# (kernels: the entry points check every shape their loops index)
"""One layer and direction of ``NStepLSTM`` over all its steps, compiled:
the recurrent product and the cell of each step in one pass, forward and
backward (float32, CPUs with AVX-512F).

The arrays are those of :mod:`chainerlite.functions.rnn._recurrence`: the
steps' rows one after the other (``xw`` and the outputs ``ys``, cell states
``cs``, activations ``act`` and gradients), ``batches`` and ``starts`` the
rows and first row of each step in the order they run (decreasing batches
forward in time, increasing for a reversed direction). Row ``i`` of a step
starts from row ``i`` of the step run before it where that step has one,
else from the initial states ``hx`` and ``cx``. The gates of ``xw`` and of
the recurrent weight ``w`` (``4 * units`` rows) are the blocks ``a, i, f,
o`` of ``units`` rows each.

Each step's product is that of :mod:`packed_gemm` (the same panels of 32
columns, so the same sums) and its cell that of :mod:`lstm` (the vector
cell). With more than one thread, each thread owns the units of some
panels: forward, it computes its units' columns of the four gates, then
the cells of those units; backward, the cells of its units, then the
columns of the recurrent gradient for those units. One barrier a step
(the product reads every unit of the rows the cells wrote), where the
product and the cell were a parallel region each. Each element is
computed by one thread in the order of one, so any thread count gives the
same bits. The steps are done in chunks, and Ctrl-C is looked for between
chunks (see ``chunks.pxd``).

Both entry points decline (return None, nothing written) where the kernel
does not take the arrays: another dtype, a CPU without AVX-512F.
"""
cimport numpy as cnp
from cython.parallel cimport prange
from libc.string cimport memset

from chainerlite._kernels.aligned cimport aligned_empty
from chainerlite._kernels.argcheck cimport array_span, overlap
from chainerlite._kernels.chunks cimport Chunks, chunks, cl_max_threads, next_chunk, parts_of
from chainerlite._kernels.dtypes cimport descr_of, float32

import numpy
from operator import index as _index

cnp.import_array()

#: As packed_gemm's products and lstm's cell, whose bits it gives (those
#: of the steps run one by one with packed_gemm.matmul and lstm's kernels).
PRECISION = 'rtol 1e-5 float32'

cdef extern from * nogil:
    """
    #include "packed_tile.h"
    #include "lstm_cell.h"
    #ifdef _OPENMP
    #include <omp.h>
    #endif

    /* the arrays of a layer (n units); panels: of each gate forward, of
     * the n columns backward */
    typedef struct {
        Py_ssize_t n, panels;
        const Py_ssize_t *batches, *starts;
        const float *hx, *cx, *xw, *packed, *gys;
        float *ys, *cs, *act, *pre, *gh, *gc, *gx;
    } cl_layer;

    #if CL_HAVE_AVX2 && CL_HAVE_VEC
    static int cl_layer_cpu(void) { return cl_cpu_avx512f(); }

    /* rows of step s that start from the step before (the others start
     * from the initial states) */
    static Py_ssize_t cl_layer_carried(const cl_layer *L, Py_ssize_t s) {
        Py_ssize_t m = L->batches[s];
        if (s == 0)
            return 0;
        return m < L->batches[s - 1] ? m : L->batches[s - 1];
    }

    /* the state row i of step s starts from: in `steps` (one row of n per
     * row of the layer) or in `init` */
    static const float *cl_layer_prev(const cl_layer *L, Py_ssize_t s,
                                      Py_ssize_t i, const float *steps,
                                      const float *init) {
        if (i < cl_layer_carried(L, s))
            return steps + (L->starts[s - 1] + i) * L->n;
        return init + i * L->n;
    }

    /* the units [*u0, *u1) of part t of parts: those of its panels */
    static void cl_layer_units(const cl_layer *L, int t, int parts,
                               Py_ssize_t *p0, Py_ssize_t *p1,
                               Py_ssize_t *u0, Py_ssize_t *u1) {
        *p0 = L->panels * t / parts;
        *p1 = L->panels * (t + 1) / parts;
        *u0 = *p0 * CL_NR;
        *u1 = *p1 * CL_NR < L->n ? *p1 * CL_NR : L->n;
    }

    static int cl_layer_cols(const cl_layer *L, Py_ssize_t p) {
        return L->n - p * CL_NR < CL_NR ? (int)(L->n - p * CL_NR) : CL_NR;
    }

    /* forward, step s, part t: the gates of its units, then their cells */
    static CL_AVX512 void cl_layer_fwd_step(const cl_layer *L, Py_ssize_t s,
                                            int t, int parts) {
        Py_ssize_t n = L->n, w = 4 * n, g, p, i, r, p0, p1, u0, u1;
        Py_ssize_t m = L->batches[s], lo = L->starts[s];
        Py_ssize_t mc = cl_layer_carried(L, s);
        const float *h = s > 0 ? L->ys + L->starts[s - 1] * n : L->hx;
        cl_layer_units(L, t, parts, &p0, &p1, &u0, &u1);
        for (g = 0; g < 4; g++)
            for (p = p0; p < p1; p++) {
                const float *panel = L->packed + (g * L->panels + p) * n * CL_NR;
                Py_ssize_t col = g * n + p * CL_NR;
                int nc = cl_layer_cols(L, p);
                cl_pg_panel(mc, n, h, n, panel, L->xw + lo * w + col, w,
                            L->pre + col, w, nc);
                cl_pg_panel(m - mc, n, L->hx + mc * n, n, panel,
                            L->xw + (lo + mc) * w + col, w,
                            L->pre + mc * w + col, w, nc);
            }
        for (i = 0; i < m; i++) {
            const float *cp = cl_layer_prev(L, s, i, L->cs, L->cx);
            Py_ssize_t o = (lo + i) * n;
            float *act = L->act != NULL ? L->act + (lo + i) * 5 * n : NULL;
            /* whole blocks (of a constant size, so that their loads and
             * stores are vector moves), then the last few cells */
            for (r = u0; r + CL_VLANES <= u1; r += CL_VLANES)
                cl_lstm_fwd_block(cp + r, L->pre + i * w + r, L->cs + o + r,
                                  L->ys + o + r, act ? act + r : NULL, n,
                                  CL_VLANES);
            if (r < u1)
                cl_lstm_fwd_block(cp + r, L->pre + i * w + r, L->cs + o + r,
                                  L->ys + o + r, act ? act + r : NULL, n,
                                  (int)(u1 - r));
        }
    }

    /* backward, step s, part t: the cells of its units (the gradient of
     * the outputs added to gh first, gc updated in place) */
    static CL_AVX512 void cl_layer_bwd_cells(const cl_layer *L, Py_ssize_t s,
                                             int t, int parts) {
        Py_ssize_t n = L->n, i, r, p0, p1, u0, u1;
        Py_ssize_t m = L->batches[s], lo = L->starts[s];
        cl_layer_units(L, t, parts, &p0, &p1, &u0, &u1);
        for (i = 0; i < m; i++) {
            const float *cp = cl_layer_prev(L, s, i, L->cs, L->cx);
            const float *act = L->act + (lo + i) * 5 * n;
            const float *gy = L->gys + (lo + i) * n;
            float *gh = L->gh + i * n, *gc = L->gc + i * n;
            float *gx = L->gx + (lo + i) * 4 * n;
            for (r = u0; r < u1; r++)
                gh[r] = gh[r] + gy[r];
            for (r = u0; r + CL_VLANES <= u1; r += CL_VLANES)
                cl_lstm_bwd_block(cp + r, NULL, NULL, act + r, gc + r, gh + r,
                                  gc + r, gx + r, n, CL_VLANES);
            if (r < u1)
                cl_lstm_bwd_block(cp + r, NULL, NULL, act + r, gc + r, gh + r,
                                  gc + r, gx + r, n, (int)(u1 - r));
        }
    }

    /* backward, step s, part t: gh's columns of its units from the gate
     * gradients of the step */
    static CL_AVX512 void cl_layer_bwd_product(const cl_layer *L,
                                               Py_ssize_t s, int t,
                                               int parts) {
        Py_ssize_t n = L->n, w = 4 * n, p, p0, p1, u0, u1;
        cl_layer_units(L, t, parts, &p0, &p1, &u0, &u1);
        for (p = p0; p < p1; p++)
            cl_pg_panel(L->batches[s], w, L->gx + L->starts[s] * w, w,
                        L->packed + p * w * CL_NR, NULL, 0, L->gh + p * CL_NR,
                        n, cl_layer_cols(L, p));
    }
    #else
    static int cl_layer_cpu(void) { return 0; }
    static void cl_layer_fwd_step(const cl_layer *L, Py_ssize_t s, int t,
                                  int parts) {}
    static void cl_layer_bwd_cells(const cl_layer *L, Py_ssize_t s, int t,
                                   int parts) {}
    static void cl_layer_bwd_product(const cl_layer *L, Py_ssize_t s, int t,
                                     int parts) {}
    #endif

    #ifdef _OPENMP
    #define CL_LAYER_TEAM(parts) \
        _Pragma("omp parallel num_threads(parts) if (parts > 1)")
    #define CL_LAYER_BARRIER _Pragma("omp barrier")
    #define CL_LAYER_PART omp_get_thread_num()
    #define CL_LAYER_PARTS omp_get_num_threads()
    #else
    #define CL_LAYER_TEAM(parts)
    #define CL_LAYER_BARRIER
    #define CL_LAYER_PART 0
    #define CL_LAYER_PARTS 1
    #endif

    /* the steps [s0, s1) forward, shared by up to `parts` threads */
    static void cl_layer_forward(const cl_layer *L, Py_ssize_t s0,
                                 Py_ssize_t s1, int parts) {
        CL_LAYER_TEAM(parts)
        {
            int t = CL_LAYER_PART, team = CL_LAYER_PARTS;
            Py_ssize_t s;
            for (s = s0; s < s1; s++) {
                cl_layer_fwd_step(L, s, t, team);
                if (s + 1 < s1) {
                    CL_LAYER_BARRIER
                }
            }
        }
    }

    /* the steps [s0, s1) backward, from s1 - 1 down to s0 */
    static void cl_layer_backward(const cl_layer *L, Py_ssize_t s0,
                                  Py_ssize_t s1, int parts) {
        CL_LAYER_TEAM(parts)
        {
            int t = CL_LAYER_PART, team = CL_LAYER_PARTS;
            Py_ssize_t s;
            for (s = s1 - 1; s >= s0; s--) {
                cl_layer_bwd_cells(L, s, t, team);
                CL_LAYER_BARRIER
                cl_layer_bwd_product(L, s, t, team);
            }
        }
    }
    """
    ctypedef struct cl_layer:
        Py_ssize_t n
        Py_ssize_t panels
        const Py_ssize_t* batches
        const Py_ssize_t* starts
        const float* hx
        const float* cx
        const float* xw
        const float* packed
        const float* gys
        float* ys
        float* cs
        float* act
        float* pre
        float* gh
        float* gc
        float* gx
    int CL_NR
    int cl_layer_cpu()
    void cl_pg_pack(const float* w, Py_ssize_t rows, Py_ssize_t cols,
                    int transposed, Py_ssize_t p, float* panel)
    void cl_layer_forward(const cl_layer* L, Py_ssize_t s0, Py_ssize_t s1,
                          int parts)
    void cl_layer_backward(const cl_layer* L, Py_ssize_t s0, Py_ssize_t s1,
                           int parts)

cdef bint _cpu = cl_layer_cpu()


cdef bint _takes(a, Py_ssize_t rows, Py_ssize_t cols, bint written):
    # a float32, C-contiguous, aligned (rows, cols) ndarray (writeable if
    # written)
    if not (type(a) is numpy.ndarray and cnp.PyArray_NDIM(<cnp.ndarray>a) == 2
            and descr_of(<cnp.ndarray>a) is float32()
            and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray>a)
            and cnp.PyArray_ISALIGNED(<cnp.ndarray>a)):
        return False
    if written and not cnp.PyArray_ISWRITEABLE(<cnp.ndarray>a):
        return False
    return a.shape[0] == rows and a.shape[1] == cols


cdef cnp.ndarray _steps(batches, starts, Py_ssize_t total, Py_ssize_t rows):
    # batches then starts as one (2, steps) intp array; TypeError for
    # entries that are not integers, ValueError unless both have the same
    # length, at least one, and each step's rows lie in [0, total) with at
    # most ``rows`` of them
    b = [_index(v) for v in batches]
    s = [_index(v) for v in starts]
    if len(b) != len(s) or not b:
        raise ValueError('lstm_layer: batches and starts must be two '
                         'non-empty sequences of the same length')
    cdef Py_ssize_t t
    cdef cnp.ndarray out = numpy.empty((2, len(b)), numpy.intp)
    cdef Py_ssize_t* steps = <Py_ssize_t*>cnp.PyArray_DATA(out)
    for t in range(len(b)):
        if not (0 < b[t] <= rows and 0 <= s[t] <= total - b[t]):
            raise ValueError('lstm_layer: step {} has rows outside the '
                             'arrays'.format(t))
        steps[t], steps[len(b) + t] = b[t], s[t]
    # (filled here: NumPy's conversion of lists looks for Ctrl-C)
    return out


cdef float* _f(a) noexcept:
    return <float*>cnp.PyArray_DATA(<cnp.ndarray>a) if a is not None else NULL


cdef cnp.ndarray _pack(w, Py_ssize_t n, bint gates):
    # w (4n, n) as panels: of each gate's w.T (gates) or of w's n columns;
    # the panels shared among the threads where they are worth it
    cdef cnp.ndarray a = w
    cdef Py_ssize_t P = (n + CL_NR - 1) // CL_NR, q, count = 4 * P if gates else P
    cdef Py_ssize_t size = (n if gates else 4 * n) * CL_NR
    cdef cnp.ndarray out = aligned_empty((count, size), numpy.float32)
    cdef const float* src = <const float*>cnp.PyArray_DATA(a)
    cdef float* dst = <float*>cnp.PyArray_DATA(out)
    cdef int parts = parts_of(count, size, cl_max_threads())
    # (one pass over w, as short as a step's product: no look for Ctrl-C,
    # which the steps' chunks make)
    with nogil:
        for q in prange(count, num_threads=parts, schedule='static',
                        use_threads_if=parts > 1):
            if gates:  # panel q % P of gate q // P
                cl_pg_pack(src + q // P * n * n, n, n, 1, q % P, dst + q * size)
            else:
                cl_pg_pack(src, 4 * n, n, 0, q, dst + q * size)
    return out


cdef cl_layer _layer(Py_ssize_t n, cnp.ndarray steps):
    # a layer of n units over the steps of _steps, no array set yet
    cdef cl_layer L
    memset(&L, 0, sizeof(L))
    L.n, L.panels = n, (n + CL_NR - 1) // CL_NR
    L.batches = <const Py_ssize_t*>cnp.PyArray_DATA(steps)
    L.starts = L.batches + steps.shape[1]
    return L


cdef int _run(cl_layer* L, Py_ssize_t steps, Py_ssize_t rows,
              bint forward) except -1:
    # the steps in chunks (Ctrl-C between them), shared among the threads
    # where a step is worth it
    cdef Py_ssize_t n = L.n
    cdef Py_ssize_t work = rows * 4 * n * n // 16 + rows * n * 32 + 1
    cdef int threads = cl_max_threads()
    cdef int parts = parts_of(L.panels, work // L.panels + 1, threads)
    cdef Chunks todo = chunks(steps, work, parts)
    while next_chunk(&todo):
        with nogil:
            if forward:
                cl_layer_forward(L, todo.begin, todo.end, parts)
            else:
                cl_layer_backward(L, steps - todo.end, steps - todo.begin, parts)
    return 0


cdef object _check(str name, tuple shaped, tuple filled):
    # every (array, rows, cols) of shaped is a float32 C-contiguous array of
    # that shape (filled: also writeable, and apart from every other array
    # of the call); None where one is not, ValueError where an output
    # overlaps another array
    cdef Py_ssize_t i, j
    for a, rows, cols in shaped:
        if a is not None and not _takes(a, rows, cols, False):
            return None
    for a, rows, cols in filled:
        if a is not None and not _takes(a, rows, cols, True):
            return None
    arrays = [a for a, _, _ in shaped + filled]
    for i in range(len(shaped), len(arrays)):
        for j in range(len(arrays)):
            if (i != j and arrays[i] is not None and arrays[j] is not None
                    and overlap(array_span(arrays[i]), array_span(arrays[j]))):
                raise ValueError('{}: an output overlaps another array of '
                                 'the call'.format(name))
    return True


def forward(xw, hx, cx, w, batches, starts, ys, cs, act=None):
    """Runs the steps: fills the outputs ``ys`` and cell states ``cs`` of
    every step's rows (and, given ``act``, of shape ``(len(xw), 5 *
    units)``, the activations ``a, i, f, o, tanh(c)`` of each cell that
    :func:`backward` reads); returns True, or None where the kernel does
    not take the arrays (then nothing is written).

    ``xw`` is ``(N, 4 * units)``, ``hx`` and ``cx`` ``(B, units)``, ``w``
    ``(4 * units, units)``, ``ys`` and ``cs`` ``(N, units)``; ``batches``
    and ``starts`` say where the steps' rows are, in the order they run.
    """
    if not _cpu or type(hx) is not numpy.ndarray or hx.ndim != 2:
        return None
    cdef Py_ssize_t B = hx.shape[0], n = hx.shape[1], N = len(xw)
    cdef cnp.ndarray steps = _steps(batches, starts, N, B)
    if _check('lstm_layer.forward',
              ((xw, N, 4 * n), (hx, B, n), (cx, B, n), (w, 4 * n, n)),
              ((ys, N, n), (cs, N, n), (act, N, 5 * n))) is None or n == 0:
        return None
    packed = _pack(w, n, True)
    pre = numpy.empty((B, 4 * n), numpy.float32)
    cdef cl_layer L = _layer(n, steps)
    L.hx, L.cx, L.xw, L.packed = _f(hx), _f(cx), _f(xw), _f(packed)
    L.ys, L.cs, L.act, L.pre = _f(ys), _f(cs), _f(act), _f(pre)
    _run(&L, steps.shape[1], B, True)
    return True


def backward(w, cx, cs, act, gys, gh, gc, gx, batches, starts):
    """Runs the steps back from the arrays :func:`forward` filled (``cs``
    and ``act``) and the gradient ``gys`` of the outputs: ``gh`` and ``gc``
    (``(B, units)``, the gradients of the final states on entry) become
    those of the initial states, and ``gx`` (``(N, 4 * units)``) receives
    the gradients of every step's gates; returns True, or None where the
    kernel does not take the arrays (then nothing is written).
    """
    if not _cpu or act is None or type(cx) is not numpy.ndarray or cx.ndim != 2:
        return None
    cdef Py_ssize_t B = cx.shape[0], n = cx.shape[1], N = len(cs)
    cdef cnp.ndarray steps = _steps(batches, starts, N, B)
    if _check('lstm_layer.backward',
              ((w, 4 * n, n), (cx, B, n), (cs, N, n), (act, N, 5 * n),
               (gys, N, n)),
              ((gh, B, n), (gc, B, n), (gx, N, 4 * n))) is None or n == 0:
        return None
    packed = _pack(w, n, False)
    cdef cl_layer L = _layer(n, steps)
    L.cx, L.cs, L.act, L.gys = _f(cx), _f(cs), _f(act), _f(gys)
    L.gh, L.gc, L.gx, L.packed = _f(gh), _f(gc), _f(gx), _f(packed)
    _run(&L, steps.shape[1], B, False)
    return True
