# cython: boundscheck=False, wraparound=False
# (kernels: their loops index only within the shapes they read)
"""Compiled 2-D max pooling on the CPU: the forward and its gradient.

They give exactly the results of the NumPy path of
:mod:`chainerlite.functions.pooling.max_pooling_nd`: the running maximum
over the taps in C order (as ``numpy.maximum``: NaN propagates, and of two
equal values the later tap's is kept), the first tap holding it as the
index, and gradients summed onto each pixel in the order of the taps.
Padding is ``-inf``. OpenMP shares the image planes among its threads once
an array is large enough.

Each plane is done by a ``nogil`` function on raw pointers and local
variables (which the compiler keeps in registers, unlike the shared
variables of a ``prange`` body); windows that lie inside the image skip
the bounds tests of those that reach into the padding.
"""
from cython.parallel cimport prange
from libc.math cimport INFINITY

ctypedef fused real:
    float
    double

#: Elements below which one thread does the work.
cdef Py_ssize_t PARALLEL_MIN = 1 << 17


cdef inline void _take(real v, Py_ssize_t k, real* best,
                       Py_ssize_t* best_k) noexcept nogil:
    # One more tap of the running maximum (the first one is taken as is):
    # a larger v moves the index; v replaces the maximum unless it is
    # smaller or the maximum is NaN (so an equal v gives its sign, a NaN
    # propagates). Selects, not branches: on random data the comparison
    # is unpredictable.
    cdef real b = best[0]
    cdef bint larger = v > b
    cdef bint replace = (b == b) & (not v < b)
    best_k[0] = k if larger else best_k[0]
    best[0] = v if replace else b


cdef void _max_plane(
        const real* src, Py_ssize_t s_h, Py_ssize_t s_w, Py_ssize_t h,
        Py_ssize_t w, real* dst, Py_ssize_t* index, Py_ssize_t oh,
        Py_ssize_t ow, int kh, int kw, int sy, int sx, int py,
        int px) noexcept nogil:
    # one image plane (strides s_h, s_w in elements) into the C-contiguous
    # (oh, ow) planes dst and index
    cdef Py_ssize_t oy, ox, iy, ix, y0, x0, k
    cdef int i, j
    cdef real v, best
    cdef Py_ssize_t best_k
    cdef const real* row
    for oy in range(oh):
        y0 = oy * sy - py
        for ox in range(ow):
            x0 = ox * sx - px
            if y0 >= 0 and y0 + kh <= h and x0 >= 0 and x0 + kw <= w:
                row = src + y0 * s_h + x0 * s_w
                best = row[0]
                best_k = 0
                k = 0
                for i in range(kh):
                    for j in range(kw):
                        if k > 0:
                            _take(row[i * s_h + j * s_w], k, &best, &best_k)
                        k += 1
            else:
                k = 0
                best_k = 0
                best = -INFINITY
                for i in range(kh):
                    iy = y0 + i
                    for j in range(kw):
                        ix = x0 + j
                        if iy < 0 or iy >= h or ix < 0 or ix >= w:
                            v = -INFINITY
                        else:
                            v = src[iy * s_h + ix * s_w]
                        if k == 0:
                            best = v
                        else:
                            _take(v, k, &best, &best_k)
                        k += 1
            dst[oy * ow + ox] = best
            index[oy * ow + ox] = best_k


def max_pooling_2d(const real[:, :, :, :] x, real[:, :, :, ::1] y,
                   Py_ssize_t[:, :, :, ::1] indexes, int kh, int kw,
                   int sy, int sx, int py, int px):
    """Fills ``y`` with the window maxima of ``x`` and ``indexes`` with
    their positions in the flattened ``(kh, kw)`` windows."""
    cdef Py_ssize_t c = y.shape[1], planes = y.shape[0] * y.shape[1]
    cdef Py_ssize_t p, b, ch
    cdef Py_ssize_t s_h = x.strides[2] // <Py_ssize_t>sizeof(real)
    cdef Py_ssize_t s_w = x.strides[3] // <Py_ssize_t>sizeof(real)
    cdef bint parallel = x.size * kh * kw >= PARALLEL_MIN
    if y.size == 0:
        return
    for p in prange(planes, nogil=True, schedule='static',
                    use_threads_if=parallel):
        b = p // c
        ch = p % c
        _max_plane(&x[b, ch, 0, 0], s_h, s_w, x.shape[2], x.shape[3],
                   &y[b, ch, 0, 0], &indexes[b, ch, 0, 0], y.shape[2],
                   y.shape[3], kh, kw, sy, sx, py, px)


cdef void _grad_plane(
        const real* gy, Py_ssize_t g_h, Py_ssize_t g_w,
        const Py_ssize_t* index, real* gx, Py_ssize_t h, Py_ssize_t w,
        Py_ssize_t oh, Py_ssize_t ow, Py_ssize_t taps, int kw, int sy,
        int sx, int py, int px) noexcept nogil:
    # one plane: gy (strides g_h, g_w) onto the C-contiguous (h, w) gx
    cdef Py_ssize_t k, oy, ox, iy, ix, at
    for k in range(taps):
        for oy in range(oh):
            for ox in range(ow):
                at = index[oy * ow + ox]
                if taps > 1 and at != k:
                    continue
                iy = oy * sy + at // kw - py
                ix = ox * sx + at % kw - px
                if iy >= 0 and iy < h and ix >= 0 and ix < w:
                    gx[iy * w + ix] += gy[oy * g_h + ox * g_w]


def max_pooling_2d_grad(const real[:, :, :, :] gy,
                        const Py_ssize_t[:, :, :, ::1] indexes,
                        real[:, :, :, ::1] gx, int kh, int kw,
                        int sy, int sx, int py, int px):
    """Adds each ``gy`` onto the pixel of ``gx`` (zeros) that its index
    names in its window."""
    cdef Py_ssize_t c = gy.shape[1], planes = gy.shape[0] * gy.shape[1]
    cdef Py_ssize_t p, b, ch
    cdef Py_ssize_t g_h = gy.strides[2] // <Py_ssize_t>sizeof(real)
    cdef Py_ssize_t g_w = gy.strides[3] // <Py_ssize_t>sizeof(real)
    # Overlapping windows: one pass per tap, so that each pixel sums its
    # gradients in the order of the taps; disjoint ones give a pixel at
    # most one gradient, and one pass does.
    cdef Py_ssize_t taps = kh * kw if sy < kh or sx < kw else 1
    cdef bint parallel = gx.size >= PARALLEL_MIN
    if gy.size == 0:
        return
    for p in prange(planes, nogil=True, schedule='static',
                    use_threads_if=parallel):
        b = p // c
        ch = p % c
        _grad_plane(&gy[b, ch, 0, 0], g_h, g_w, &indexes[b, ch, 0, 0],
                    &gx[b, ch, 0, 0], gx.shape[2], gx.shape[3], gy.shape[2],
                    gy.shape[3], taps, kw, sy, sx, py, px)
