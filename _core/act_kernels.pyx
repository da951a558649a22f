# cython: boundscheck=False, wraparound=False
# (kernels: their loops index only within the shapes they read)
"""Compiled element-wise kernels of activation functions on the CPU.

Each is one pass over C-contiguous float32/float64 arrays (flattened by
the caller) where NumPy makes several temporaries: the backwards of
leaky_relu, softplus and gelu, and gelu's forward (NumPy has no
``erfc``). Those with a transcendental compute in double and round once
to the array's dtype. (elu, sigmoid and swish stay on NumPy: measured,
their compiled passes were slower, libm's scalar ``exp`` against NumPy's
vectorized loops, and for sigmoid the call's own cost.) The functions'
double-backprop graphs stay in Python; these serve only their plain
backward (``_backward_arrays``).

Each kernel first checks its arrays (a few comparisons): one length,
aligned, the output apart from the inputs; else a ValueError names it.
The elements are done in chunks, and Ctrl-C is looked for between chunks
(see ``chunks.pxd``).
"""
from libc.math cimport M_SQRT1_2, erfc, exp, fabs

from chainerlite._core.argcheck cimport Span, aligned, overlap, span
from chainerlite._core.chunks cimport Chunks, chunks, next_chunk

ctypedef fused real:
    float
    double

#: 1 / sqrt(2 pi), the normal density at 0
cdef double INV_SQRT_2PI = 0.3989422804014327
#: Units of work (see chunks.pxd) of an element: a select, a libm call.
cdef Py_ssize_t SELECT_WORK = 4, LIBM_WORK = 16


cdef int _check(str kernel, const void* x, Py_ssize_t n, const void* gy,
                Py_ssize_t n_gy, void* out, Py_ssize_t n_out,
                Py_ssize_t itemsize) except -1:
    # the arrays of an element-wise kernel (gy NULL for a kernel of one
    # input): one length, aligned, and the output apart from the inputs
    cdef Span s_out = span(out, 1, &n_out, &itemsize, itemsize)
    if (n_out != n or gy != NULL and n_gy != n):
        raise ValueError('act_kernels.{}: arrays of different lengths: '
                         '{}, {}, {}'.format(kernel, n, n_gy if gy else '-',
                                             n_out))
    if not (aligned(x, 1, &itemsize, itemsize)
            and aligned(gy, 1, &itemsize, itemsize)
            and aligned(out, 1, &itemsize, itemsize)):
        raise ValueError('act_kernels.{}: an array is not aligned'.format(kernel))
    if (overlap(s_out, span(x, 1, &n, &itemsize, itemsize)) or gy != NULL
            and overlap(s_out, span(gy, 1, &n_gy, &itemsize, itemsize))):
        raise ValueError('act_kernels.{}: the output overlaps an input'
                         .format(kernel))
    return 0


cdef inline double _sigmoid(double t) noexcept nogil:
    # exp(-|t|) never overflows; both tails keep their relative precision
    cdef double e = exp(-fabs(t))
    return (1.0 if t >= 0 else e) / (1.0 + e)


def leaky_relu_grad(const real[::1] x, const real[::1] gy, real[::1] gx,
                    double slope):
    """``gx = gy * slope`` where ``x <= 0`` (unless ``x * slope`` is NaN:
    -inf with a zero slope), else ``gy`` (NaN included), as Chainer."""
    _check('leaky_relu_grad', &x[0], x.shape[0], &gy[0], gy.shape[0], &gx[0],
           gx.shape[0], sizeof(real))
    cdef Py_ssize_t i, n = x.shape[0]
    cdef const real* xs = &x[0] if n else NULL
    cdef const real* gs = &gy[0] if n else NULL
    cdef real* out = &gx[0] if n else NULL
    cdef real s = <real>slope, one = 1
    cdef Chunks todo = chunks(n, SELECT_WORK, 1)
    while next_chunk(&todo):
        with nogil:
            for i in range(todo.begin, todo.end):
                out[i] = gs[i] * (s if xs[i] <= 0 and xs[i] * s == xs[i] * s
                                  else one)


def softplus_grad(const real[::1] x, const real[::1] gy, real[::1] gx,
                  double beta):
    """``gx = gy * sigmoid(beta * x)``."""
    _check('softplus_grad', &x[0], x.shape[0], &gy[0], gy.shape[0], &gx[0],
           gx.shape[0], sizeof(real))
    cdef Py_ssize_t i
    cdef Chunks todo = chunks(x.shape[0], LIBM_WORK, 1)
    while next_chunk(&todo):
        with nogil:
            for i in range(todo.begin, todo.end):
                gx[i] = <real>(gy[i] * _sigmoid(beta * x[i]))


cdef inline double _normal_cdf(double t) noexcept nogil:
    # erfc keeps the left tail's relative precision (1 + erf would cancel)
    return 0.5 * erfc(-t * M_SQRT1_2)


def gelu(const real[::1] x, real[::1] y):
    """``y = x * Phi(x)``, ``Phi`` the standard normal distribution."""
    _check('gelu', &x[0], x.shape[0], NULL, 0, &y[0], y.shape[0], sizeof(real))
    cdef Py_ssize_t i
    cdef Chunks todo = chunks(x.shape[0], LIBM_WORK, 1)
    while next_chunk(&todo):
        with nogil:
            for i in range(todo.begin, todo.end):
                y[i] = <real>(x[i] * _normal_cdf(x[i]))


def normal_cdf(const real[::1] x, real[::1] y):
    """``y = Phi(x)``."""
    _check('normal_cdf', &x[0], x.shape[0], NULL, 0, &y[0], y.shape[0],
           sizeof(real))
    cdef Py_ssize_t i
    cdef Chunks todo = chunks(x.shape[0], LIBM_WORK, 1)
    while next_chunk(&todo):
        with nogil:
            for i in range(todo.begin, todo.end):
                y[i] = <real>_normal_cdf(x[i])


def gelu_grad(const real[::1] x, const real[::1] gy, real[::1] gx):
    """``gx = gy * (Phi(x) + x * phi(x))``, ``phi`` the normal density."""
    _check('gelu_grad', &x[0], x.shape[0], &gy[0], gy.shape[0], &gx[0],
           gx.shape[0], sizeof(real))
    cdef Py_ssize_t i
    cdef double t
    cdef Chunks todo = chunks(x.shape[0], LIBM_WORK, 1)
    while next_chunk(&todo):
        with nogil:
            for i in range(todo.begin, todo.end):
                t = x[i]
                gx[i] = <real>(gy[i] * (_normal_cdf(t) + t * INV_SQRT_2PI
                                        * exp(-0.5 * t * t)))
