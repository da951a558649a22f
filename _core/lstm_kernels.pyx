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


def lstm_forward(const real[:, :, :] c_prev, const real[:, :, :, :] x,
                 real[:, :, :] c_next, real[:, :, :] h):
    """Fills the new cell state ``c_next`` and the output ``h``."""
    cdef Py_ssize_t batch = x.shape[0], units = x.shape[1], rest = x.shape[3]
    cdef Py_ssize_t b, u, r
    cdef real a, i, f, o, c
    cdef bint parallel = x.size >= PARALLEL_MIN
    for b in prange(c_prev.shape[0], nogil=True, schedule='static',
                    use_threads_if=parallel):
        for u in range(units):
            for r in range(rest):
                if b >= batch:
                    c_next[b, u, r] = c_prev[b, u, r]
                    continue
                a = <real>tanh(x[b, u, 0, r])
                i = _sigmoid(x[b, u, 1, r])
                f = _sigmoid(x[b, u, 2, r])
                o = _sigmoid(x[b, u, 3, r])
                c = a * i + f * c_prev[b, u, r]
                c_next[b, u, r] = c
                h[b, u, r] = o * <real>tanh(c)


def lstm_backward(const real[:, :, :] c_prev, const real[:, :, :, :] x,
                  const real[:, :, :] c_next, const real[:, :, :] gc,
                  const real[:, :, :] gh, real[:, :, :] gc_prev,
                  real[:, :, :, :] gx):
    """Fills the gradients ``gc_prev`` and ``gx`` of the cell's inputs from
    those ``gc`` and ``gh`` of its outputs."""
    cdef Py_ssize_t batch = x.shape[0], units = x.shape[1], rest = x.shape[3]
    cdef Py_ssize_t b, u, r
    cdef real a, i, f, o, tc, g, go
    cdef bint parallel = x.size >= PARALLEL_MIN
    for b in prange(c_prev.shape[0], nogil=True, schedule='static',
                    use_threads_if=parallel):
        for u in range(units):
            for r in range(rest):
                if b >= batch:
                    gc_prev[b, u, r] = gc[b, u, r]
                    continue
                a = <real>tanh(x[b, u, 0, r])
                i = _sigmoid(x[b, u, 1, r])
                f = _sigmoid(x[b, u, 2, r])
                o = _sigmoid(x[b, u, 3, r])
                tc = <real>tanh(c_next[b, u, r])
                go = gh[b, u, r]
                g = gc[b, u, r] + go * o * (1 - tc * tc)
                gx[b, u, 0, r] = g * i * (1 - a * a)
                gx[b, u, 1, r] = g * a * i * (1 - i)
                gx[b, u, 2, r] = g * c_prev[b, u, r] * f * (1 - f)
                gx[b, u, 3, r] = go * tc * o * (1 - o)
                gc_prev[b, u, r] = g * f
