# cython: boundscheck=False, wraparound=False
# (kernels: their loops index only within the shapes they read)
"""Compiled LSTM cell (``F.lstm``) on the CPU: forward and gradient.

Each runs the cell's elementwise formula in one pass, with the operations
in the order of the NumPy formula of
:mod:`chainerlite.functions.rnn.lstm` (``tanh`` and ``exp`` come from the
C library, so results may differ from NumPy's in the last bit). Arrays are
seen as ``(batch, units, rest)``, the gate sources as ``(batch, units, 4,
rest)`` with the gates ``a, i, f, o`` on the third axis (the entry points
take the arrays in the shapes of ``F.lstm`` and make these views; the
arrays they fill must be C-contiguous). Rows past the
batch of ``x`` are copied (cell state) or passed through (its gradient).
OpenMP shares the batch among its threads once the arrays are large.
"""
from cython.parallel cimport prange
from libc.math cimport exp, fabs, tanh

import numpy

ctypedef fused real:
    float
    double

#: Elements below which one thread does the work.
cdef Py_ssize_t PARALLEL_MIN = 1 << 16


cdef inline real _sigmoid(real v) noexcept nogil:
    # exp(-|v|) never overflows (as the NumPy path computes it)
    cdef real e = <real>exp(-fabs(v))
    # a select, not a branch: v's sign is unpredictable
    cdef real num = 1 if v >= 0 else e
    return num / (e + 1)


cdef inline void _activate(const real[:, :, :, :] x, Py_ssize_t b,
                           Py_ssize_t u, Py_ssize_t r,
                           real* gates) noexcept nogil:
    # the gates a, i, f, o of one cell: tanh(a) and sigmoid of the others
    gates[0] = <real>tanh(x[b, u, 0, r])
    gates[1] = _sigmoid(x[b, u, 1, r])
    gates[2] = _sigmoid(x[b, u, 2, r])
    gates[3] = _sigmoid(x[b, u, 3, r])


cdef void _forward_row(const real[:, :, :] c_prev, const real[:, :, :, :] x,
                       real[:, :, :] c_next, real[:, :, :] h,
                       real[:, :, :, :] act, bint save,
                       Py_ssize_t b) noexcept nogil:
    cdef Py_ssize_t u, r
    cdef real g[4]
    cdef real c, tc
    if b >= x.shape[0]:
        for u in range(c_prev.shape[1]):
            for r in range(c_prev.shape[2]):
                c_next[b, u, r] = c_prev[b, u, r]
        return
    for u in range(c_prev.shape[1]):
        for r in range(c_prev.shape[2]):
            _activate(x, b, u, r, g)
            c = g[0] * g[1] + g[2] * c_prev[b, u, r]
            c_next[b, u, r] = c
            tc = <real>tanh(c)
            h[b, u, r] = g[3] * tc
            if save:
                act[b, u, 0, r] = g[0]
                act[b, u, 1, r] = g[1]
                act[b, u, 2, r] = g[2]
                act[b, u, 3, r] = g[3]
                act[b, u, 4, r] = tc


cdef inline void _cell_grads(real a, real i, real f, real o, real tc,
                             real c_prev, real gc, real gh, real* gx,
                             real* gc_prev) noexcept nogil:
    # the gradients of one cell from its activated gates and tanh(c)
    cdef real grad = gc + gh * o * (1 - tc * tc)
    gx[0] = grad * i * (1 - a * a)
    gx[1] = grad * a * i * (1 - i)
    gx[2] = grad * c_prev * f * (1 - f)
    gx[3] = gh * tc * o * (1 - o)
    gc_prev[0] = grad * f


cdef void _backward_row(const real[:, :, :] c_prev, const real[:, :, :, :] x,
                        const real[:, :, :] c_next, const real[:, :, :] gc,
                        const real[:, :, :] gh, real[:, :, :] gc_prev,
                        real[:, :, :, :] gx, Py_ssize_t b) noexcept nogil:
    cdef Py_ssize_t u, r
    cdef real g[4]
    cdef real d[4]
    if b >= x.shape[0]:
        _pass_row(gc, gc_prev, b)
        return
    for u in range(c_prev.shape[1]):
        for r in range(c_prev.shape[2]):
            _activate(x, b, u, r, g)
            _cell_grads(g[0], g[1], g[2], g[3], <real>tanh(c_next[b, u, r]),
                        c_prev[b, u, r], gc[b, u, r], gh[b, u, r], d,
                        &gc_prev[b, u, r])
            _store4(gx, b, u, r, d)


cdef void _backward_saved_row(const real[:, :, :] c_prev,
                              const real[:, :, :, :] act,
                              const real[:, :, :] gc, const real[:, :, :] gh,
                              real[:, :, :] gc_prev, real[:, :, :, :] gx,
                              Py_ssize_t b) noexcept nogil:
    cdef Py_ssize_t u, r
    cdef real d[4]
    if b >= act.shape[0]:
        _pass_row(gc, gc_prev, b)
        return
    for u in range(c_prev.shape[1]):
        for r in range(c_prev.shape[2]):
            _cell_grads(act[b, u, 0, r], act[b, u, 1, r], act[b, u, 2, r],
                        act[b, u, 3, r], act[b, u, 4, r], c_prev[b, u, r],
                        gc[b, u, r], gh[b, u, r], d, &gc_prev[b, u, r])
            _store4(gx, b, u, r, d)


cdef inline void _pass_row(const real[:, :, :] gc, real[:, :, :] gc_prev,
                           Py_ssize_t b) noexcept nogil:
    # a row past the batch of x: its cell state was copied
    cdef Py_ssize_t u, r
    for u in range(gc.shape[1]):
        for r in range(gc.shape[2]):
            gc_prev[b, u, r] = gc[b, u, r]


cdef inline void _store4(real[:, :, :, :] gx, Py_ssize_t b, Py_ssize_t u,
                         Py_ssize_t r, const real* d) noexcept nogil:
    gx[b, u, 0, r] = d[0]
    gx[b, u, 1, r] = d[1]
    gx[b, u, 2, r] = d[2]
    gx[b, u, 3, r] = d[3]


cdef inline bint _parallel(Py_ssize_t rows, const real[:, :, :] c) noexcept nogil:
    return rows * c.shape[1] * c.shape[2] >= PARALLEL_MIN


cdef object _f32 = numpy.dtype(numpy.float32)
cdef object _f64 = numpy.dtype(numpy.float64)


cdef object _view(a, Py_ssize_t gates):
    # ``a``, shaped (batch, gates * units, ...), as (batch, units, rest),
    # or as (batch, units, gates, rest) when gates > 1
    shape = a.shape
    cdef Py_ssize_t rest = 1, k
    for k in range(2, len(shape)):
        rest *= shape[k]
    if gates == 1:
        return a.reshape(shape[0], shape[1], rest)
    return a.reshape(shape[0], shape[1] // gates, gates, rest)


cdef bint _single(a) except -1:
    # True for float32 arrays, False for float64 ones
    dtype = a.dtype
    if dtype == _f32:
        return True
    if dtype == _f64:
        return False
    raise TypeError('lstm kernels take float32 or float64 arrays, not %s' % dtype)


cdef int _check(bint ok, str what) except -1:
    if not ok:
        raise ValueError('lstm kernels: shapes do not match (%s)' % what)
    return 0


cdef int _check_cells(const real[:, :, :] c, const real[:, :, :] other,
                      Py_ssize_t rows, str what) except -1:
    # ``other`` has ``rows`` rows and the cells of c
    return _check(other.shape[0] == rows and other.shape[1] == c.shape[1]
                  and other.shape[2] == c.shape[2], what)


cdef int _check_gates(const real[:, :, :] c, const real[:, :, :, :] x,
                      Py_ssize_t parts, str what) except -1:
    # ``x`` holds ``parts`` values for each cell of its rows of c
    return _check(x.shape[0] <= c.shape[0] and x.shape[1] == c.shape[1]
                  and x.shape[2] == parts and x.shape[3] == c.shape[2], what)


cdef int _forward(const real[:, :, :] c_prev, const real[:, :, :, :] x,
                  real[:, :, :] c_next, real[:, :, :] h,
                  real[:, :, :, :] act, bint save) except -1:
    cdef Py_ssize_t b
    _check_gates(c_prev, x, 4, 'x')
    _check_cells(c_prev, c_next, c_prev.shape[0], 'c_next')
    _check_cells(c_prev, h, x.shape[0], 'h')
    if save:
        _check(act.shape[0] == x.shape[0], 'act')
        _check_gates(c_prev, act, 5, 'act')
    for b in prange(c_prev.shape[0], nogil=True, schedule='static',
                    use_threads_if=_parallel(x.shape[0], c_prev)):
        _forward_row(c_prev, x, c_next, h, act, save, b)
    return 0


def lstm_forward(c_prev, x, c_next, h, bint save=False):
    """Fills the new cell state ``c_next`` and the output ``h``.

    With ``save``, returns the activated gates ``a, i, f, o`` and
    ``tanh(c)`` of each cell (an array of shape ``(len(x), units, 5,
    rest)``) for :func:`lstm_backward_saved`; None otherwise.
    """
    c3, x4 = _view(c_prev, 1), _view(x, 4)
    act = None
    if save:
        act = numpy.empty((x4.shape[0], x4.shape[1], 5, x4.shape[3]), x.dtype)
    if _single(c_prev):
        _forward[float](c3, x4, _view(c_next, 1), _view(h, 1), act, save)
    else:
        _forward[double](c3, x4, _view(c_next, 1), _view(h, 1), act, save)
    return act


cdef int _backward(const real[:, :, :] c_prev, const real[:, :, :, :] x,
                   const real[:, :, :] c_next, const real[:, :, :] gc,
                   const real[:, :, :] gh, real[:, :, :] gc_prev,
                   real[:, :, :, :] gx) except -1:
    cdef Py_ssize_t b
    _check_gates(c_prev, x, 4, 'x')
    _check_grads(c_prev, gc, gh, gc_prev, gx, x.shape[0])
    _check_cells(c_prev, c_next, c_prev.shape[0], 'c_next')
    for b in prange(c_prev.shape[0], nogil=True, schedule='static',
                    use_threads_if=_parallel(x.shape[0], c_prev)):
        _backward_row(c_prev, x, c_next, gc, gh, gc_prev, gx, b)
    return 0


cdef int _check_grads(const real[:, :, :] c_prev, const real[:, :, :] gc,
                      const real[:, :, :] gh, real[:, :, :] gc_prev,
                      real[:, :, :, :] gx, Py_ssize_t rows) except -1:
    _check_cells(c_prev, gc, c_prev.shape[0], 'gc')
    _check_cells(c_prev, gh, rows, 'gh')
    _check_cells(c_prev, gc_prev, c_prev.shape[0], 'gc_prev')
    _check(gx.shape[0] == rows, 'gx')
    return _check_gates(c_prev, gx, 4, 'gx')


def lstm_backward(c_prev, x, c_next, gc, gh, gc_prev, gx):
    """Fills the gradients ``gc_prev`` and ``gx`` of the cell's inputs from
    those ``gc`` and ``gh`` of its outputs."""
    c3, x4, n3 = _view(c_prev, 1), _view(x, 4), _view(c_next, 1)
    gc3, gh3, gp3, gx4 = _view(gc, 1), _view(gh, 1), _view(gc_prev, 1), _view(gx, 4)
    if _single(c_prev):
        _backward[float](c3, x4, n3, gc3, gh3, gp3, gx4)
    else:
        _backward[double](c3, x4, n3, gc3, gh3, gp3, gx4)


cdef int _backward_saved(const real[:, :, :] c_prev,
                         const real[:, :, :, :] act, const real[:, :, :] gc,
                         const real[:, :, :] gh, real[:, :, :] gc_prev,
                         real[:, :, :, :] gx) except -1:
    cdef Py_ssize_t b
    _check_gates(c_prev, act, 5, 'act')
    _check_grads(c_prev, gc, gh, gc_prev, gx, act.shape[0])
    for b in prange(c_prev.shape[0], nogil=True, schedule='static',
                    use_threads_if=_parallel(act.shape[0], c_prev)):
        _backward_saved_row(c_prev, act, gc, gh, gc_prev, gx, b)
    return 0


def lstm_backward_saved(c_prev, act, gc, gh, gc_prev, gx):
    """:func:`lstm_backward` from the activations ``act`` that
    :func:`lstm_forward` saved: the same values, no transcendental function
    evaluated again."""
    c3, gc3, gh3 = _view(c_prev, 1), _view(gc, 1), _view(gh, 1)
    gp3, gx4 = _view(gc_prev, 1), _view(gx, 4)
    if _single(c_prev):
        _backward_saved[float](c3, act, gc3, gh3, gp3, gx4)
    else:
        _backward_saved[double](c3, act, gc3, gh3, gp3, gx4)
