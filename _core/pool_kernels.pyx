# cython: boundscheck=False, wraparound=False
# (kernels: their loops index only within the shapes they read)
"""Compiled 2-D max pooling on the CPU: the forward and its gradient.

They give exactly the results of the NumPy path of
:mod:`chainerlite.functions.pooling.max_pooling_nd`: the running maximum
over the taps in C order (as ``numpy.maximum``: NaN propagates, and of two
equal values the later tap's is kept), the first tap holding it as the
index, and gradients summed onto each pixel in the order of the taps.
Padding is ``-inf``. OpenMP shares the batch among its threads once an
array is large enough.
"""
from cython.parallel cimport prange
from libc.math cimport INFINITY

ctypedef fused real:
    float
    double

#: Elements below which one thread does the work.
cdef Py_ssize_t PARALLEL_MIN = 1 << 17


def max_pooling_2d(const real[:, :, :, :] x, real[:, :, :, :] y,
                   Py_ssize_t[:, :, :, :] indexes, int kh, int kw,
                   int sy, int sx, int py, int px):
    """Fills ``y`` with the window maxima of ``x`` and ``indexes`` with
    their positions in the flattened ``(kh, kw)`` windows."""
    cdef Py_ssize_t n = y.shape[0], c = y.shape[1]
    cdef Py_ssize_t oh = y.shape[2], ow = y.shape[3]
    cdef Py_ssize_t h = x.shape[2], w = x.shape[3]
    cdef Py_ssize_t b, ch, oy, ox, i, j, iy, ix, best_k
    cdef real v, best
    cdef bint parallel = x.size * kh * kw >= PARALLEL_MIN
    for b in prange(n, nogil=True, schedule='static',
                    use_threads_if=parallel):
        for ch in range(c):
            for oy in range(oh):
                for ox in range(ow):
                    best = -INFINITY
                    best_k = 0
                    for i in range(kh):
                        iy = oy * sy + i - py
                        for j in range(kw):
                            ix = ox * sx + j - px
                            if iy < 0 or iy >= h or ix < 0 or ix >= w:
                                v = -INFINITY
                            else:
                                v = x[b, ch, iy, ix]
                            if i == 0 and j == 0:
                                best = v
                            elif v > best:
                                best = v
                                best_k = i * kw + j
                            elif best == best and not v < best:
                                best = v    # equal (keeps v's sign) or NaN
                    y[b, ch, oy, ox] = best
                    indexes[b, ch, oy, ox] = best_k


def max_pooling_2d_grad(const real[:, :, :, :] gy,
                        const Py_ssize_t[:, :, :, :] indexes,
                        real[:, :, :, :] gx, int kh, int kw,
                        int sy, int sx, int py, int px):
    """Adds each ``gy`` onto the pixel of ``gx`` (zeros) that its index
    names in its window."""
    cdef Py_ssize_t n = gy.shape[0], c = gy.shape[1]
    cdef Py_ssize_t oh = gy.shape[2], ow = gy.shape[3]
    cdef Py_ssize_t h = gx.shape[2], w = gx.shape[3]
    cdef Py_ssize_t b, ch, oy, ox, k, iy, ix
    cdef Py_ssize_t taps = kh * kw if sy < kh or sx < kw else 1
    cdef bint parallel = gx.size >= PARALLEL_MIN
    for b in prange(n, nogil=True, schedule='static',
                    use_threads_if=parallel):
        for ch in range(c):
            # Overlapping windows: one pass per tap, so that each pixel
            # sums its gradients in the order of the taps; disjoint ones
            # give a pixel at most one gradient, and one pass does.
            for k in range(taps):
                for oy in range(oh):
                    for ox in range(ow):
                        if taps > 1 and indexes[b, ch, oy, ox] != k:
                            continue
                        iy = oy * sy + indexes[b, ch, oy, ox] // kw - py
                        ix = ox * sx + indexes[b, ch, oy, ox] % kw - px
                        if iy >= 0 and iy < h and ix >= 0 and ix < w:
                            gx[b, ch, iy, ix] += gy[b, ch, oy, ox]
