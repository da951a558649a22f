# cython: boundscheck=False, wraparound=False
# (kernels: their loops index only within the shapes they read)
"""Compiled LSTM cell (``F.lstm``) on the CPU: forward and gradient.

Each runs the cell's elementwise formula in one pass, with the operations
in the order of the NumPy formula of
:mod:`chainerlite.functions.rnn.lstm` (``tanh`` and ``exp`` come from the
C library, so results may differ from NumPy's in the last bit). Arrays are
seen as ``(batch, units, rest)``, the gate sources as ``(batch, units, 4,
rest)`` with the gates ``a, i, f, o`` on the third axis. Rows past the
batch of ``x`` are copied (cell state) or passed through (its gradient).
OpenMP shares the batch among its threads once the arrays are large.
"""
from cython.parallel cimport prange
from libc.math cimport exp, fabs, tanh

ctypedef fused real:
    float
    double

#: Elements below which one thread does the work.
cdef Py_ssize_t PARALLEL_MIN = 1 << 16


cdef inline real _sigmoid(real v) noexcept nogil:
    # exp(-|v|) never overflows (as the NumPy path computes it)
    cdef real e = <real>exp(-fabs(v))
    if v >= 0:
        return 1 / (e + 1)
    return e / (e + 1)


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
                       Py_ssize_t b) noexcept nogil:
    cdef Py_ssize_t u, r
    cdef real g[4]
    cdef real c
    for u in range(c_prev.shape[1]):
        for r in range(c_prev.shape[2]):
            if b >= x.shape[0]:
                c_next[b, u, r] = c_prev[b, u, r]
                continue
            _activate(x, b, u, r, g)
            c = g[0] * g[1] + g[2] * c_prev[b, u, r]
            c_next[b, u, r] = c
            h[b, u, r] = g[3] * <real>tanh(c)


cdef void _backward_row(const real[:, :, :] c_prev, const real[:, :, :, :] x,
                        const real[:, :, :] c_next, const real[:, :, :] gc,
                        const real[:, :, :] gh, real[:, :, :] gc_prev,
                        real[:, :, :, :] gx, Py_ssize_t b) noexcept nogil:
    cdef Py_ssize_t u, r
    cdef real g[4]
    cdef real a, i, f, o, tc, grad, go
    for u in range(c_prev.shape[1]):
        for r in range(c_prev.shape[2]):
            if b >= x.shape[0]:
                gc_prev[b, u, r] = gc[b, u, r]
                continue
            _activate(x, b, u, r, g)
            a, i, f, o = g[0], g[1], g[2], g[3]
            tc = <real>tanh(c_next[b, u, r])
            go = gh[b, u, r]
            grad = gc[b, u, r] + go * o * (1 - tc * tc)
            gx[b, u, 0, r] = grad * i * (1 - a * a)
            gx[b, u, 1, r] = grad * a * i * (1 - i)
            gx[b, u, 2, r] = grad * c_prev[b, u, r] * f * (1 - f)
            gx[b, u, 3, r] = go * tc * o * (1 - o)
            gc_prev[b, u, r] = grad * f


def lstm_forward(const real[:, :, :] c_prev, const real[:, :, :, :] x,
                 real[:, :, :] c_next, real[:, :, :] h):
    """Fills the new cell state ``c_next`` and the output ``h``."""
    cdef Py_ssize_t b
    cdef bint parallel = x.shape[0] * c_prev.shape[1] * c_prev.shape[2] >= (
        PARALLEL_MIN)
    for b in prange(c_prev.shape[0], nogil=True, schedule='static',
                    use_threads_if=parallel):
        _forward_row(c_prev, x, c_next, h, b)


def lstm_backward(const real[:, :, :] c_prev, const real[:, :, :, :] x,
                  const real[:, :, :] c_next, const real[:, :, :] gc,
                  const real[:, :, :] gh, real[:, :, :] gc_prev,
                  real[:, :, :, :] gx):
    """Fills the gradients ``gc_prev`` and ``gx`` of the cell's inputs from
    those ``gc`` and ``gh`` of its outputs."""
    cdef Py_ssize_t b
    cdef bint parallel = x.shape[0] * c_prev.shape[1] * c_prev.shape[2] >= (
        PARALLEL_MIN)
    for b in prange(c_prev.shape[0], nogil=True, schedule='static',
                    use_threads_if=parallel):
        _backward_row(c_prev, x, c_next, gc, gh, gc_prev, gx, b)
