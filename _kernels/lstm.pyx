# cython: boundscheck=False, wraparound=False
# build: openmp
# (kernels: the entry points check every shape their loops index)
"""Compiled LSTM cell (``F.lstm``) on the CPU: forward and gradient.

Each runs the cell's elementwise formula row by row, with the operations
in the order of the NumPy formula of
:mod:`chainerlite.functions.rnn.lstm`. The sigmoid is Chainer's
``tanh(v / 2) / 2 + 1 / 2``. The entry points take the arrays in the
shapes of ``F.lstm`` and see them as C-ordered ``(batch, units, rest)``
cells, the gate sources as ``(batch, units, 4, rest)`` with the gates
``a, i, f, o`` on the third axis (inputs are made contiguous and aligned;
the arrays they fill must be C-contiguous, aligned, writeable and apart
from every other array of the call). Rows past the batch of ``x`` are
copied (cell state) or passed through (its gradient).

In float32, where ``rest`` has at least 16 elements (``NStepLSTM``'s
steps see their units there), each cell is done in one pass forward and
one backward, 16 cells at a time, with the vector tanh of ``vec_tanh.h``
(under one unit in the last place); elsewhere a row's gates and cell
states take one vectorised ``tanh`` each (libmvec's, see ``vec_math``;
the C library's where it is absent). Results may differ from NumPy's in
the last bit. OpenMP shares the batch among its threads once the arrays
are large; the rows are done in chunks, and Ctrl-C is looked for between
chunks (see ``chunks.pxd``).
"""
from cython.parallel cimport prange
from libc.math cimport tanh
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

cimport numpy as cnp

from chainerlite._kernels.argcheck cimport array_span, overlap
from chainerlite._kernels.chunks cimport Chunks, chunks, cl_max_threads, next_chunk
from chainerlite._kernels.dtypes cimport float32, float64
from chainerlite._kernels.vec_math cimport tanh_f32, tanh_f64

import numpy

cnp.import_array()

cdef extern from "lstm_cell.h" nogil:
    int CL_HAVE_VEC
    int CL_VLANES
    void cl_lstm_fwd_row(const float* cp, const float* x, float* cn, float* h,
                         float* act, Py_ssize_t units, Py_ssize_t q)
    void cl_lstm_bwd_row(const float* cp, const float* x, const float* cn,
                         const float* act, const float* gc, const float* gh,
                         float* gcp, float* gx, Py_ssize_t units, Py_ssize_t q)


ctypedef fused real:
    float
    double

#: Against the NumPy path of F.lstm (libmvec's tanh where present): a
#: relative 1e-5 in float32, 1e-10 in float64.
PRECISION = 'rtol 1e-5 float32, 1e-10 float64'

#: Cells below which one thread does the work. (1 << 13, which would share
#: NStepLSTM's steps at 650 units and batch 20 or 64, made them slower with
#: two threads on a busy two-core machine, where the second thread waits to
#: be scheduled; a quiet machine was not at hand to measure.)
cdef Py_ssize_t PARALLEL_MIN = 1 << 16
#: Units of work (see chunks.pxd) of a cell, forward or backward.
cdef Py_ssize_t CELL_WORK = 32

cdef object _ndarray = numpy.ndarray
cdef object _ascontiguous = numpy.ascontiguousarray


cdef object _contiguous(a):
    # an aligned C-contiguous ndarray of a's values (a itself if it is one)
    a = _ascontiguous(a)
    if not cnp.PyArray_ISALIGNED(<cnp.ndarray>a):
        a = cnp.PyArray_NewCopy(<cnp.ndarray>a, cnp.NPY_CORDER)
    return a


cdef struct Cells:
    # the layout shared by the arrays of one call
    Py_ssize_t rows      # rows of the cell state
    Py_ssize_t batch     # rows of x (the first rows of the cell state)
    Py_ssize_t units
    Py_ssize_t rest      # elements of a cell per unit (trailing axes)


cdef void _tanh(const real* x, real* y, Py_ssize_t n) noexcept nogil:
    # y = tanh(x) (x and y may be equal): libmvec's vector loops where the
    # machine has them, else the C library's tanh
    cdef Py_ssize_t i
    cdef bint done
    if real is float:
        done = tanh_f32(x, y, n)
    else:
        done = tanh_f64(x, y, n)
    if not done:
        for i in range(n):
            y[i] = <real>tanh(x[i])


cdef void _activate(const real* x, real* g, Cells s) noexcept nogil:
    # The activated gates of one row of x (units, 4, rest) into g, in the
    # same layout: tanh(a), and sigmoid(v) = tanh(v / 2) / 2 + 1 / 2 (the
    # formula of Chainer's LSTM) for i, f and o, so that the whole row is
    # one call of the vector tanh.
    cdef Py_ssize_t u, k, r, j, q = s.rest
    cdef real half = 0.5
    for u in range(s.units):
        j = u * 4 * q
        for r in range(q):
            g[j + r] = x[j + r]
        for k in range(q, 4 * q):
            g[j + k] = x[j + k] * half
    _tanh(g, g, s.units * 4 * q)
    for u in range(s.units):
        j = u * 4 * q
        for k in range(q, 4 * q):
            g[j + k] = g[j + k] * half + half


cdef inline bint _vector_rows(Cells s) noexcept nogil:
    # whether float32 rows go through the vector kernels: cells of 16 or
    # more elements
    return CL_HAVE_VEC and s.rest >= CL_VLANES


cdef int _forward_row(const real* c_prev, const real* x, real* c_next,
                      real* h, real* act, Cells s,
                      Py_ssize_t b) noexcept nogil:
    # -1 if the scratch memory could not be had (nothing written)
    cdef Py_ssize_t u, r, k, o, go, ao, q = s.rest, n = s.units * s.rest
    if b >= s.batch:  # a row that x does not update
        memcpy(&c_next[b * n], &c_prev[b * n], n * sizeof(real))
        return 0
    if real is float and _vector_rows(s):
        cl_lstm_fwd_row(<const float*>&c_prev[b * n], <const float*>&x[b * n * 4],
                        <float*>&c_next[b * n], <float*>&h[b * n],
                        <float*>&act[b * n * 5] if act != NULL else NULL,
                        s.units, s.rest)
        return 0
    # the row's activated gates, then tanh of its cell states
    cdef real* g = <real*>malloc(5 * n * sizeof(real))
    if g == NULL:
        return -1
    cdef real* tc = g + 4 * n
    _activate(&x[b * n * 4], g, s)
    for u in range(s.units):
        for r in range(q):
            go = u * 4 * q + r
            c_next[b * n + u * q + r] = (g[go] * g[go + q]
                                         + g[go + 2 * q] * c_prev[b * n + u * q + r])
    _tanh(&c_next[b * n], tc, n)
    for u in range(s.units):
        for r in range(q):
            o = b * n + u * q + r
            go = u * 4 * q + r
            h[o] = g[go + 3 * q] * tc[u * q + r]
            if act != NULL:
                ao = (b * n + u * q) * 5 + r
                for k in range(4):
                    act[ao + k * q] = g[go + k * q]
                act[ao + 4 * q] = tc[u * q + r]
    free(g)
    return 0


cdef inline void _cell_grads(real a, real i, real f, real o, real tc,
                             real c_prev, real gc, real gh, real* gx,
                             Py_ssize_t stride, real* gc_prev) noexcept nogil:
    # the gradients of one cell from its activated gates and tanh(c); gx
    # receives those of the four gates, ``stride`` apart
    cdef real grad = gc + gh * o * (1 - tc * tc)
    gx[0] = grad * i * (1 - a * a)
    gx[stride] = grad * a * i * (1 - i)
    gx[2 * stride] = grad * c_prev * f * (1 - f)
    gx[3 * stride] = gh * tc * o * (1 - o)
    gc_prev[0] = grad * f


cdef int _backward_row(const real* c_prev, const real* x, const real* c_next,
                       const real* act, const real* gc, const real* gh,
                       real* gc_prev, real* gx, Cells s,
                       Py_ssize_t b) noexcept nogil:
    # the activations come from act when given, else from x and c_next
    # (evaluated as the forward does); -1 if the scratch memory could not
    # be had (nothing written)
    cdef Py_ssize_t u, r, o, xo, go, ao, q = s.rest, n = s.units * s.rest
    cdef real* g = NULL
    cdef real* tc
    if b >= s.batch:  # the cell state was copied: its gradient passes
        memcpy(&gc_prev[b * n], &gc[b * n], n * sizeof(real))
        return 0
    if real is float and _vector_rows(s):
        cl_lstm_bwd_row(<const float*>&c_prev[b * n], <const float*>&x[b * n * 4],
                        <const float*>&c_next[b * n] if act == NULL else NULL,
                        <const float*>&act[b * n * 5] if act != NULL else NULL,
                        <const float*>&gc[b * n], <const float*>&gh[b * n],
                        <float*>&gc_prev[b * n], <float*>&gx[b * n * 4],
                        s.units, s.rest)
        return 0
    if act == NULL:
        g = <real*>malloc(5 * n * sizeof(real))
        if g == NULL:
            return -1
        tc = g + 4 * n
        _activate(&x[b * n * 4], g, s)
        _tanh(&c_next[b * n], tc, n)
    for u in range(s.units):
        for r in range(q):
            o = b * n + u * q + r
            xo = (b * n + u * q) * 4 + r
            if act == NULL:
                go = u * 4 * q + r
                _cell_grads(g[go], g[go + q], g[go + 2 * q], g[go + 3 * q],
                            tc[u * q + r], c_prev[o], gc[o], gh[o], &gx[xo],
                            q, &gc_prev[o])
            else:
                ao = (b * n + u * q) * 5 + r
                _cell_grads(act[ao], act[ao + q], act[ao + 2 * q],
                            act[ao + 3 * q], act[ao + 4 * q], c_prev[o], gc[o],
                            gh[o], &gx[xo], q, &gc_prev[o])
    free(g)
    return 0


cdef inline bint _parallel(Cells s) noexcept nogil:
    return s.batch * s.units * s.rest >= PARALLEL_MIN


cdef inline Chunks _row_chunks(Cells s) noexcept nogil:
    return chunks(s.rows, CELL_WORK * s.units * s.rest, cl_max_threads())


cdef Cells _layout(c_prev, x) except *:
    # the cells of c_prev, and the batch of x (x's layout is checked)
    cdef Cells s
    cdef Py_ssize_t k
    shape = c_prev.shape
    if len(shape) < 2:
        raise ValueError('lstm kernels: c_prev has shape %s' % (shape,))
    s.rows, s.units, s.rest = shape[0], shape[1], 1
    for k in range(2, len(shape)):
        s.rest *= shape[k]
    s.batch = len(x) if x.ndim >= 2 else -1
    if not 0 <= s.batch <= s.rows:
        raise ValueError('lstm kernels: x has shape %s' % (x.shape,))
    _expect(x, c_prev.dtype, s, s.batch, 4, 1, 'x', False)
    return s


cdef int _expect(a, dtype, Cells s, Py_ssize_t rows, Py_ssize_t per_unit,
                 Py_ssize_t per_cell, str name, bint filled) except -1:
    # ``a`` has ``rows`` rows of ``per_unit * units`` entries of
    # ``per_cell * rest`` elements; an array to fill must be an aligned,
    # writeable, C-contiguous ndarray
    cdef Py_ssize_t rest = 1, k
    if filled and not (isinstance(a, _ndarray)
                       and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray>a)
                       and cnp.PyArray_ISALIGNED(<cnp.ndarray>a)):
        raise ValueError('lstm kernels: %s must be C-contiguous and aligned'
                         % name)
    if filled and not cnp.PyArray_ISWRITEABLE(<cnp.ndarray>a):
        raise ValueError('lstm kernels: %s is read-only' % name)
    if a.dtype != dtype:
        raise TypeError('lstm kernels: %s is %s, not %s' % (name, a.dtype, dtype))
    shape = a.shape
    for k in range(2, len(shape)):
        rest *= shape[k]
    if len(shape) < 2 or shape[0] != rows or shape[1] != per_unit * s.units \
            or rest != per_cell * s.rest:
        raise ValueError('lstm kernels: %s has shape %s' % (name, shape))
    return 0


cdef inline void* _data(a) noexcept:
    # the elements of an ndarray; NULL for None
    return NULL if a is None else cnp.PyArray_DATA(<cnp.ndarray>a)


cdef int _apart(str kernel, tuple outputs, tuple arrays) except -1:
    # each output shares no memory with any other array of the call (None
    # entries are absent arrays)
    cdef Py_ssize_t i, j
    for i in range(len(outputs)):
        for j in range(len(arrays)):
            if (arrays[j] is not None and arrays[j] is not outputs[i]
                    and overlap(array_span(outputs[i]), array_span(arrays[j]))
                    or arrays[j] is outputs[i] and j != i):
                raise ValueError('{}: an output overlaps another array of '
                                 'the call'.format(kernel))
    return 0


cdef bint _single(a) except -1:
    # True for float32 arrays, False for float64 ones
    dtype = a.dtype
    if dtype == float32():
        return True
    if dtype == float64():
        return False
    raise TypeError('lstm kernels take float32 or float64 arrays, not %s' % dtype)


cdef int _forward(const real* c_prev, const real* x, real* c_next, real* h,
                  real* act, Cells s) except -1:
    cdef Py_ssize_t b, failed = 0
    cdef Chunks rows = _row_chunks(s)
    while next_chunk(&rows):
        for b in prange(rows.begin, rows.end, nogil=True, schedule='static',
                        use_threads_if=_parallel(s)):
            failed += _forward_row(c_prev, x, c_next, h, act, s, b) < 0
        if failed:
            raise MemoryError('lstm_forward: no memory for the activations '
                              'of a row')
    return 0


def lstm_forward(c_prev, x, c_next, h, bint save=False, act=None):
    """Fills the new cell state ``c_next`` and the output ``h``.

    With ``save``, returns the activated gates ``a, i, f, o`` and
    ``tanh(c)`` of each cell (an array of shape ``(len(x), units, 5,
    rest)``) for :func:`lstm_backward`: written into ``act`` where it is
    given (an array of that shape to fill, so that a caller running many
    steps keeps them all in one block), else into a new array; None
    without ``save`` (then ``act`` must be None).
    """
    c_prev, x = _contiguous(c_prev), _contiguous(x)
    cdef Cells s = _layout(c_prev, x)
    dtype = c_prev.dtype
    _expect(c_next, dtype, s, s.rows, 1, 1, 'c_next', True)
    _expect(h, dtype, s, s.batch, 1, 1, 'h', True)
    if act is not None:
        if not save:
            raise ValueError('lstm kernels: act given without save')
        _expect(act, dtype, s, s.batch, 1, 5, 'act', True)
    outputs = (c_next, h) if act is None else (c_next, h, act)
    _apart('lstm_forward', outputs, outputs + (c_prev, x))
    if save and act is None:
        act = numpy.empty((s.batch, s.units, 5, s.rest), dtype)
    if _single(c_prev):
        _forward(<float*>_data(c_prev), <float*>_data(x), <float*>_data(c_next),
                 <float*>_data(h), <float*>_data(act), s)
    else:
        _forward(<double*>_data(c_prev), <double*>_data(x), <double*>_data(c_next),
                 <double*>_data(h), <double*>_data(act), s)
    return act


cdef int _backward(const real* c_prev, const real* x, const real* c_next,
                   const real* act, const real* gc, const real* gh,
                   real* gc_prev, real* gx, Cells s) except -1:
    cdef Py_ssize_t b, failed = 0
    cdef Chunks rows = _row_chunks(s)
    while next_chunk(&rows):
        for b in prange(rows.begin, rows.end, nogil=True, schedule='static',
                        use_threads_if=_parallel(s)):
            failed += _backward_row(c_prev, x, c_next, act, gc, gh, gc_prev,
                                    gx, s, b) < 0
        if failed:
            raise MemoryError('lstm_backward: no memory for the activations '
                              'of a row')
    return 0


def lstm_backward(c_prev, x, c_next, gc, gh, gc_prev, gx, act=None):
    """Fills the gradients ``gc_prev`` and ``gx`` of the cell's inputs from
    those ``gc`` and ``gh`` of its outputs.

    Given ``act``, what :func:`lstm_forward` saved, it reads the activations
    there (the same values) instead of evaluating them again from ``x`` and
    ``c_next``, which it then does not read.
    """
    c_prev, x = _contiguous(c_prev), _contiguous(x)
    gc, gh = _contiguous(gc), _contiguous(gh)
    cdef Cells s = _layout(c_prev, x)
    dtype = c_prev.dtype
    if act is None:
        c_next = _contiguous(c_next)
        _expect(c_next, dtype, s, s.rows, 1, 1, 'c_next', False)
    else:
        c_next = None  # not read
        act = _contiguous(act)
        _expect(act, dtype, s, s.batch, 1, 5, 'act', False)
    _expect(gc, dtype, s, s.rows, 1, 1, 'gc', False)
    _expect(gh, dtype, s, s.batch, 1, 1, 'gh', False)
    _expect(gc_prev, dtype, s, s.rows, 1, 1, 'gc_prev', True)
    _expect(gx, dtype, s, s.batch, 4, 1, 'gx', True)
    _apart('lstm_backward', (gc_prev, gx),
           (gc_prev, gx, c_prev, x, c_next, act, gc, gh))
    if _single(c_prev):
        _backward(<float*>_data(c_prev), <float*>_data(x), <float*>_data(c_next),
                  <float*>_data(act), <float*>_data(gc), <float*>_data(gh),
                  <float*>_data(gc_prev), <float*>_data(gx), s)
    else:
        _backward(<double*>_data(c_prev), <double*>_data(x),
                  <double*>_data(c_next), <double*>_data(act), <double*>_data(gc),
                  <double*>_data(gh), <double*>_data(gc_prev), <double*>_data(gx), s)
