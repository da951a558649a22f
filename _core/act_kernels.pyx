# cython: boundscheck=False, wraparound=False
# (kernels: their loops index only within the shapes they read)
"""Compiled element-wise kernels of activation functions on the CPU.

Each is one pass over C-contiguous float32/float64 arrays (flattened by
the caller) where NumPy makes several temporaries: the backwards of
elu, leaky_relu, sigmoid, softplus, swish and gelu, and gelu's forward
(NumPy has no ``erfc``). They compute in double and round once to the
array's dtype. The functions' double-backprop graphs stay in Python; these
serve only their plain backward (``_backward_arrays``).
"""
from libc.math cimport M_SQRT1_2, erfc, exp, fabs

ctypedef fused real:
    float
    double

#: 1 / sqrt(2 pi), the normal density at 0
cdef double INV_SQRT_2PI = 0.3989422804014327


cdef inline double _sigmoid(double t) noexcept nogil:
    # exp(-|t|) never overflows; both tails keep their relative precision
    cdef double e = exp(-fabs(t))
    return (1.0 if t >= 0 else e) / (1.0 + e)


def elu_grad(const real[::1] x, const real[::1] gy, real[::1] gx,
             double alpha):
    """``gx = gy`` where ``x >= 0``, else ``gy * alpha * exp(x)``."""
    cdef Py_ssize_t i
    with nogil:
        for i in range(x.shape[0]):
            if x[i] >= 0:
                gx[i] = gy[i]
            else:
                gx[i] = <real>(gy[i] * alpha * exp(x[i]))


def leaky_relu_grad(const real[::1] x, const real[::1] gy, real[::1] gx,
                    double slope):
    """``gx = gy`` where ``x >= 0``, else ``gy * slope``."""
    cdef Py_ssize_t i
    cdef real s = <real>slope
    with nogil:
        for i in range(x.shape[0]):
            gx[i] = gy[i] if x[i] >= 0 else gy[i] * s


def sigmoid_grad(const real[::1] y, const real[::1] gy, real[::1] gx):
    """``gx = gy * y * (1 - y)`` from the sigmoid's output ``y``."""
    cdef Py_ssize_t i
    with nogil:
        for i in range(y.shape[0]):
            gx[i] = gy[i] * (y[i] * (1 - y[i]))


def softplus_grad(const real[::1] x, const real[::1] gy, real[::1] gx,
                  double beta):
    """``gx = gy * sigmoid(beta * x)``."""
    cdef Py_ssize_t i
    with nogil:
        for i in range(x.shape[0]):
            gx[i] = <real>(gy[i] * _sigmoid(beta * x[i]))


def swish_grad(const real[:, :, ::1] x, const real[::1] beta,
               const real[:, :, ::1] gy, real[:, :, ::1] gx,
               real[::1] gbeta):
    """Gradients of ``x * sigmoid(beta * x)``, ``x`` seen as ``(n, b, r)``
    with ``beta`` of length ``b``: ``gx`` and ``gbeta`` (summed over the
    ``n`` and ``r`` axes)."""
    cdef Py_ssize_t a, b, r
    cdef double s, g, gds, acc
    with nogil:
        for b in range(x.shape[1]):
            acc = 0
            for a in range(x.shape[0]):
                for r in range(x.shape[2]):
                    s = _sigmoid(beta[b] * x[a, b, r])
                    g = gy[a, b, r]
                    gds = g * s * (1 - s)
                    gx[a, b, r] = <real>(g * s + gds * beta[b] * x[a, b, r])
                    acc += gds * x[a, b, r] * x[a, b, r]
            gbeta[b] = <real>acc


cdef inline double _normal_cdf(double t) noexcept nogil:
    # erfc keeps the left tail's relative precision (1 + erf would cancel)
    return 0.5 * erfc(-t * M_SQRT1_2)


def gelu(const real[::1] x, real[::1] y):
    """``y = x * Phi(x)``, ``Phi`` the standard normal distribution."""
    cdef Py_ssize_t i
    with nogil:
        for i in range(x.shape[0]):
            y[i] = <real>(x[i] * _normal_cdf(x[i]))


def normal_cdf(const real[::1] x, real[::1] y):
    """``y = Phi(x)``."""
    cdef Py_ssize_t i
    with nogil:
        for i in range(x.shape[0]):
            y[i] = <real>_normal_cdf(x[i])


def gelu_grad(const real[::1] x, const real[::1] gy, real[::1] gx):
    """``gx = gy * (Phi(x) + x * phi(x))``, ``phi`` the normal density."""
    cdef Py_ssize_t i
    cdef double t
    with nogil:
        for i in range(x.shape[0]):
            t = x[i]
            gx[i] = <real>(gy[i] * (_normal_cdf(t)
                                    + t * INV_SQRT_2PI * exp(-0.5 * t * t)))
