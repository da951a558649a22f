# cython: boundscheck=False, wraparound=False
# (kernels: their loops index only within the shapes they read)
"""Compiled im2col / col2im of 2-D images on the CPU.

They are the NumPy fast paths of :mod:`chainerlite.utils._windows` (which
convolutions, deconvolutions and poolings share) and give exactly its
results: im2col copies pixels, and col2im adds the taps of each pixel in
the C order of the taps, starting from zero, as the NumPy loop does.

Arrays are passed as strided views, so the caller picks the layout: the
column array is seen as ``(n, c, kh, kw, out_h, out_w)`` whichever of its
two layouts it has in memory. The images of a batch are independent, so
OpenMP shares the batch among its threads (``OMP_NUM_THREADS``) once an
array is large enough to pay for starting them.
"""
from cython.parallel cimport prange

# float16 pixels are copied as their bits; col2im adds, so it has no
# float16 version (the caller keeps NumPy's float16 arithmetic).
ctypedef fused pixel:
    float
    double
    unsigned short

ctypedef fused real:
    float
    double

#: Elements below which one thread does the work.
cdef Py_ssize_t PARALLEL_MIN = 1 << 17


cdef inline Py_ssize_t _first_inside(Py_ssize_t ow, int sx,
                                     int off) noexcept nogil:
    # the first output ox whose pixel ox * sx + off is >= 0
    return 0 if off >= 0 else min(ow, (sx - 1 - off) // sx)


cdef inline Py_ssize_t _end_inside(Py_ssize_t ow, Py_ssize_t w, int sx,
                                   int off) noexcept nogil:
    # the first output ox whose pixel ox * sx + off is >= w
    return 0 if w - off <= 0 else min(ow, (w - off + sx - 1) // sx)


cdef inline void _copy_row(const pixel* row, pixel* out, Py_ssize_t lo,
                           Py_ssize_t hi, int sx) noexcept nogil:
    # out[ox] = row[ox * sx] for ox in [lo, hi); stride 1 is a plain copy
    cdef Py_ssize_t ox
    if sx == 1:
        for ox in range(lo, hi):
            out[ox] = row[ox]
    else:
        for ox in range(lo, hi):
            out[ox] = row[ox * sx]


cdef void _im2col_tap(
        const pixel* src, pixel* out, Py_ssize_t h, Py_ssize_t w,
        Py_ssize_t oh, Py_ssize_t ow, Py_ssize_t i, Py_ssize_t j, int sy,
        int sx, int py, int px, int dy, int dx, pixel pval) noexcept nogil:
    # Tap (i, j) of one image plane: the C-contiguous (oh, ow) block out.
    # Only locals here, so the compiler keeps them in registers (prange
    # bodies read shared variables from memory).
    cdef Py_ssize_t oy, ox, iy, lo, hi
    cdef int off = j * dx - px
    cdef const pixel* row
    # pixels of outputs [lo, hi) lie inside the row
    lo = _first_inside(ow, sx, off)
    hi = max(lo, _end_inside(ow, w, sx, off))
    for oy in range(oh):
        iy = oy * sy + i * dy - py
        if iy < 0 or iy >= h:
            for ox in range(ow):
                out[ox] = pval
        else:
            row = src + iy * w
            for ox in range(lo):
                out[ox] = pval
            _copy_row(row + off, out, lo, hi, sx)
            for ox in range(hi, ow):
                out[ox] = pval
        out += ow


def im2col_2d(const pixel[:, :, :, ::1] img, pixel[:, :, :, :, :, :] col,
              int sy, int sx, int py, int px, int dy, int dx, pixel pval):
    """Fills ``col[b, c, i, j, y, x]`` with the pixel that tap ``(i, j)``
    sees at output ``(y, x)`` of image ``img[b, c]``, or ``pval`` in the
    padding. Each ``(y, x)`` block of ``col`` must be C-contiguous."""
    cdef Py_ssize_t n = col.shape[0], c = col.shape[1]
    cdef Py_ssize_t b, ch, i, j
    cdef bint parallel = col.size >= PARALLEL_MIN
    if col.size == 0:
        return
    for b in prange(n, nogil=True, schedule='static',
                    use_threads_if=parallel):
        for ch in range(c):
            for i in range(col.shape[2]):
                for j in range(col.shape[3]):
                    _im2col_tap(&img[b, ch, 0, 0], &col[b, ch, i, j, 0, 0],
                                img.shape[2], img.shape[3], col.shape[4],
                                col.shape[5], i, j, sy, sx, py, px, dy, dx,
                                pval)


cdef void _padded_tap(const pixel* src, pixel* out, Py_ssize_t wp,
                      Py_ssize_t oh, Py_ssize_t ow, int sy,
                      int sx) noexcept nogil:
    # one tap of one padded plane (src: the tap's first pixel) into the
    # C-contiguous (oh, ow) block out: rows copied without bounds tests
    cdef Py_ssize_t oy
    for oy in range(oh):
        _copy_row(src + oy * sy * wp, out, 0, ow, sx)
        out += ow


def im2col_padded_2d(const pixel[:, :, :, ::1] padded,
                     pixel[:, :, :, :, :, :] col, int sy, int sx, int dy,
                     int dx):
    """:func:`im2col_2d` of images already padded (large enough for every
    tap at every output), into a column array whose ``(y, x)`` blocks of
    one tap and all images follow each other (the channel-major layout,
    seen as ``(n, c, kh, kw, out_h, out_w)``); the blocks are written in
    that order of memory."""
    cdef Py_ssize_t n = col.shape[0], c = col.shape[1]
    cdef Py_ssize_t b, ch, i, j
    cdef bint parallel = col.size >= PARALLEL_MIN
    if col.size == 0:
        return
    for ch in prange(c, nogil=True, schedule='static',
                     use_threads_if=parallel):
        for i in range(col.shape[2]):
            for j in range(col.shape[3]):
                for b in range(n):
                    _padded_tap(&padded[b, ch, i * dy, j * dx],
                                &col[b, ch, i, j, 0, 0], padded.shape[3],
                                col.shape[4], col.shape[5], sy, sx)


def col2im_2d(const real[:, :, :, :, :, :] col, real[:, :, :, :] img,
              int sy, int sx, int py, int px, int dy, int dx):
    """Adds ``col[b, c, i, j, y, x]`` onto the pixel of ``img[b, c]`` that
    tap ``(i, j)`` sees at output ``(y, x)`` (``img`` holds zeros)."""
    cdef Py_ssize_t n = col.shape[0], c = col.shape[1]
    cdef Py_ssize_t kh = col.shape[2], kw = col.shape[3]
    cdef Py_ssize_t oh = col.shape[4], ow = col.shape[5]
    cdef Py_ssize_t h = img.shape[2], w = img.shape[3]
    cdef Py_ssize_t b, ch, i, j, oy, ox, iy, ix
    cdef bint parallel = col.size >= PARALLEL_MIN
    for b in prange(n, nogil=True, schedule='static',
                    use_threads_if=parallel):
        for ch in range(c):
            # one tap at a time: each pixel sums its taps in C order
            for i in range(kh):
                for j in range(kw):
                    for oy in range(oh):
                        iy = oy * sy + i * dy - py
                        if iy < 0 or iy >= h:
                            continue
                        for ox in range(ow):
                            ix = ox * sx + j * dx - px
                            if ix >= 0 and ix < w:
                                img[b, ch, iy, ix] += col[b, ch, i, j, oy, ox]


def channels_to_batch(const real[:, ::1] y, const real[::1] bias,
                      real[:, :, ::1] out):
    """Writes the channel-major product ``y`` of shape ``(c, n * p)`` as
    ``out[b, ch, :] = y[ch, b * p:(b + 1) * p] + bias[ch]`` (no bias
    added when ``bias`` is None): the batch-major output of a
    convolution and its bias in one pass."""
    cdef Py_ssize_t n = out.shape[0], c = out.shape[1], p = out.shape[2]
    cdef Py_ssize_t b, ch, k
    cdef real shift
    cdef bint has_bias = bias is not None
    with nogil:
        for b in range(n):
            for ch in range(c):
                if has_bias:
                    shift = bias[ch]
                    for k in range(p):
                        out[b, ch, k] = y[ch, b * p + k] + shift
                else:
                    for k in range(p):
                        out[b, ch, k] = y[ch, b * p + k]
