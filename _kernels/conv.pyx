# cython: boundscheck=False, wraparound=False
# build: openmp
# (kernels: their loops index only within the shapes they read)
"""Compiled im2col / col2im of 2-D images on the CPU.

They are the NumPy fast paths of :mod:`chainerlite.utils._windows` (which
convolutions, deconvolutions and poolings share) and give exactly its
results: im2col copies pixels, and col2im adds the taps of each pixel in
the C order of the taps, starting from zero, as the NumPy loop does.

Arrays are passed as strided views, so the caller picks the layout: the
column array is seen as ``(n, c, kh, kw, out_h, out_w)`` whichever of its
two layouts it has in memory. The images of a batch are independent, so
OpenMP shares the image planes (or their taps) among its threads
(``OMP_NUM_THREADS``) once an array is large enough to pay for starting
them. They are done in chunks, and Ctrl-C is looked for between chunks
(see ``chunks.pxd``).

Each first checks what its loops rely on (a few comparisons): the batch and
channels of both arrays, alignment, the output apart from the input,
positive strides and dilations, paddings that are not negative, and the
layout and reach of the columns; else a ValueError names it.
"""
from cython.parallel cimport prange
from libc.limits cimport INT_MAX

from chainerlite._kernels.argcheck cimport Span, aligned, overlap, span
from chainerlite._kernels.chunks cimport Chunks, chunks, cl_max_threads, next_chunk

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
#: The NumPy paths of utils._windows (copies, and sums in their order), bit
#: for bit.
PRECISION = 'bitwise NumPy'

cdef Py_ssize_t PARALLEL_MIN = 1 << 17


cdef tuple _dims(const Py_ssize_t* shape, int ndim):
    return tuple([shape[k] for k in range(ndim)])


cdef int _check_window(str kernel, Py_ssize_t kh, Py_ssize_t kw, int sy,
                       int sx, int py, int px, int dy, int dx) except -1:
    # strides and dilations positive, paddings not negative, and every
    # pixel offset j * dx - px (and sx - 1 - offset) of a tap fits an int
    if sy < 1 or sx < 1 or dy < 1 or dx < 1 or py < 0 or px < 0 or (
            kh > 1 and (kh - 1) > (INT_MAX - sy - py) // dy) or (
            kw > 1 and (kw - 1) > (INT_MAX - sx - px) // dx) or (
            sy > INT_MAX - py or sx > INT_MAX - px):
        raise ValueError(
            'conv.{}: strides and dilations must be positive, '
            'paddings non-negative, and the taps within an int: {}'.format(
                kernel, (kh, kw, sy, sx, py, px, dy, dx)))
    return 0


cdef int _check_arrays(str kernel, const void* src, int src_ndim,
                       const Py_ssize_t* src_shape,
                       const Py_ssize_t* src_strides, const void* dst,
                       int dst_ndim, const Py_ssize_t* dst_shape,
                       const Py_ssize_t* dst_strides,
                       Py_ssize_t itemsize) except -1:
    # images and columns of one batch and one set of channels, aligned,
    # the array written apart from the one read
    if src_shape[0] != dst_shape[0] or src_shape[1] != dst_shape[1]:
        raise ValueError('conv.{}: batch or channels differ: {} '
                         'and {}'.format(kernel, _dims(src_shape, src_ndim),
                                         _dims(dst_shape, dst_ndim)))
    if not (aligned(src, src_ndim, src_strides, itemsize)
            and aligned(dst, dst_ndim, dst_strides, itemsize)):
        raise ValueError('conv.{}: an array is not aligned'
                         .format(kernel))
    if overlap(span(src, src_ndim, src_shape, src_strides, itemsize),
               span(dst, dst_ndim, dst_shape, dst_strides, itemsize)):
        raise ValueError('conv.{}: the output overlaps the input'
                         .format(kernel))
    return 0


cdef int _check_blocks(str kernel, const Py_ssize_t* shape,
                       const Py_ssize_t* strides,
                       Py_ssize_t itemsize) except -1:
    # each (out_h, out_w) block of the columns is C-contiguous
    if (shape[5] > 1 and strides[5] != itemsize
            or shape[4] > 1 and strides[4] != shape[5] * itemsize):
        raise ValueError('conv.{}: the (out_h, out_w) blocks of the '
                         'columns must be C-contiguous'.format(kernel))
    return 0


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
    _check_window('im2col_2d', col.shape[2], col.shape[3], sy, sx, py, px,
                  dy, dx)
    _check_arrays('im2col_2d', &img[0, 0, 0, 0], 4, img.shape, img.strides,
                  &col[0, 0, 0, 0, 0, 0], 6, col.shape, col.strides,
                  sizeof(pixel))
    _check_blocks('im2col_2d', col.shape, col.strides, sizeof(pixel))
    cdef Py_ssize_t c = col.shape[1], kh = col.shape[2], kw = col.shape[3]
    cdef Py_ssize_t t, b, ch, i, j
    cdef bint parallel = col.size >= PARALLEL_MIN
    if col.size == 0:
        return
    # the taps (b, ch, i, j) in C order, each an (out_h, out_w) block
    cdef Chunks todo = chunks(col.size // (col.shape[4] * col.shape[5]),
                              col.shape[4] * col.shape[5], cl_max_threads())
    while next_chunk(&todo):
        for t in prange(todo.begin, todo.end, nogil=True, schedule='static',
                        use_threads_if=parallel):
            b = t // (c * kh * kw)
            ch = t // (kh * kw) % c
            i = t // kw % kh
            j = t % kw
            _im2col_tap(&img[b, ch, 0, 0], &col[b, ch, i, j, 0, 0],
                        img.shape[2], img.shape[3], col.shape[4],
                        col.shape[5], i, j, sy, sx, py, px, dy, dx, pval)


cdef void _padded_tap(const pixel* src, pixel* out, Py_ssize_t wp,
                      Py_ssize_t oh, Py_ssize_t ow, int sy,
                      int sx) noexcept nogil:
    # one tap of one padded plane (src: the tap's first pixel) into the
    # C-contiguous (oh, ow) block out: rows copied without bounds tests
    cdef Py_ssize_t oy
    for oy in range(oh):
        _copy_row(src + oy * sy * wp, out, 0, ow, sx)
        out += ow


cdef inline bint _reaches(Py_ssize_t size, Py_ssize_t k, int d,
                          Py_ssize_t outs, int s) noexcept nogil:
    # (k - 1) * d + (outs - 1) * s < size, without overflow (k, outs >= 1)
    if k - 1 > (size - 1) // d:
        return False
    return outs - 1 <= (size - 1 - (k - 1) * d) // s


def im2col_padded_2d(const pixel[:, :, :, ::1] padded,
                     pixel[:, :, :, :, :, :] col, int sy, int sx, int dy,
                     int dx):
    """:func:`im2col_2d` of images already padded (large enough for every
    tap at every output), into a column array whose ``(y, x)`` blocks of
    one tap and all images follow each other (the channel-major layout,
    seen as ``(n, c, kh, kw, out_h, out_w)``); the blocks are written in
    that order of memory."""
    _check_window('im2col_padded_2d', col.shape[2], col.shape[3], sy, sx, 0,
                  0, dy, dx)
    _check_arrays('im2col_padded_2d', &padded[0, 0, 0, 0], 4, padded.shape,
                  padded.strides, &col[0, 0, 0, 0, 0, 0], 6, col.shape,
                  col.strides, sizeof(pixel))
    _check_blocks('im2col_padded_2d', col.shape, col.strides, sizeof(pixel))
    if col.size and not (_reaches(padded.shape[2], col.shape[2], dy,
                                  col.shape[4], sy)
                         and _reaches(padded.shape[3], col.shape[3], dx,
                                      col.shape[5], sx)):
        raise ValueError(
            'conv.im2col_padded_2d: the windows of columns {} reach '
            'past the padded images {}'.format(_dims(col.shape, 6),
                                               _dims(padded.shape, 4)))
    cdef Py_ssize_t n = col.shape[0], kh = col.shape[2], kw = col.shape[3]
    cdef Py_ssize_t t, b, ch, i, j
    cdef bint parallel = col.size >= PARALLEL_MIN
    if col.size == 0:
        return
    # the taps (ch, i, j) in C order, each n (out_h, out_w) blocks
    cdef Chunks todo = chunks(col.shape[1] * kh * kw, col.size // col.shape[1]
                              // (kh * kw), cl_max_threads())
    while next_chunk(&todo):
        for t in prange(todo.begin, todo.end, nogil=True, schedule='static',
                        use_threads_if=parallel):
            ch = t // (kh * kw)
            i = t // kw % kh
            j = t % kw
            for b in range(n):
                _padded_tap(&padded[b, ch, i * dy, j * dx],
                            &col[b, ch, i, j, 0, 0], padded.shape[3],
                            col.shape[4], col.shape[5], sy, sx)


def col2im_2d(const real[:, :, :, :, :, :] col, real[:, :, :, :] img,
              int sy, int sx, int py, int px, int dy, int dx):
    """Adds ``col[b, c, i, j, y, x]`` onto the pixel of ``img[b, c]`` that
    tap ``(i, j)`` sees at output ``(y, x)`` (``img`` holds zeros)."""
    _check_window('col2im_2d', col.shape[2], col.shape[3], sy, sx, py, px,
                  dy, dx)
    _check_arrays('col2im_2d', &col[0, 0, 0, 0, 0, 0], 6, col.shape,
                  col.strides, &img[0, 0, 0, 0], 4, img.shape, img.strides,
                  sizeof(real))
    if col.size == 0:
        return
    cdef Py_ssize_t n = col.shape[0], c = col.shape[1]
    cdef Py_ssize_t kh = col.shape[2], kw = col.shape[3]
    cdef Py_ssize_t oh = col.shape[4], ow = col.shape[5]
    cdef Py_ssize_t h = img.shape[2], w = img.shape[3]
    cdef Py_ssize_t p, b, ch, i, j, oy, ox, iy, ix
    cdef bint parallel = col.size >= PARALLEL_MIN
    # the planes (b, ch); an add costs a few units (see chunks.pxd)
    cdef Chunks todo = chunks(n * c, 4 * kh * kw * oh * ow, cl_max_threads())
    while next_chunk(&todo):
        for p in prange(todo.begin, todo.end, nogil=True, schedule='static',
                        use_threads_if=parallel):
            b = p // c
            ch = p % c
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
    cdef Py_ssize_t itemsize = sizeof(real)
    if (y.shape[0] != c or y.shape[1] != n * p
            or bias is not None and bias.shape[0] != c):
        raise ValueError(
            'conv.channels_to_batch: shapes do not match: y {}, '
            'bias {}, out {}'.format(_dims(y.shape, 2), None if bias is None
                                     else bias.shape[0], _dims(out.shape, 3)))
    cdef const void* pb = &bias[0] if bias is not None else NULL
    if not (aligned(&y[0, 0], 2, y.strides, itemsize)
            and aligned(pb, 1, &itemsize, itemsize)
            and aligned(&out[0, 0, 0], 3, out.strides, itemsize)):
        raise ValueError('conv.channels_to_batch: an array is not '
                         'aligned')
    cdef Span s_out = span(&out[0, 0, 0], 3, out.shape, out.strides, itemsize)
    if overlap(s_out, span(&y[0, 0], 2, y.shape, y.strides, itemsize)) or (
            pb != NULL and overlap(s_out, span(pb, 1, &c, &itemsize,
                                               itemsize))):
        raise ValueError('conv.channels_to_batch: the output '
                         'overlaps an input')
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
