# cython: boundscheck=False, wraparound=False
# (kernels: the shapes are checked before the loops of direct_conv.h run)
"""Compiled direct convolutions of float32 images, stride 1, on the CPU.

The C kernels of ``direct_conv.h`` multiply straight from the padded
images, with no column array: the forward (bias included) and the
gradient of the filters. With few channels this beats im2col + BLAS,
whose product then has a short side that OpenBLAS runs far below the
CPU's peak. On x86-64 the AVX2/FMA versions run when the CPU has them
(checked once at import); :func:`direct_conv_simd` tells, and
``portable=True`` forces the plain C versions (the only ones elsewhere;
the convolutions then keep im2col + BLAS, which is faster than them).
The AVX2 versions share large work among OpenMP threads
(``OMP_NUM_THREADS``). The entry points check the shapes, alignment and
that the output is apart from the inputs before anything runs, and do the
images (forward) or input channels (filter gradient) in chunks, looking
for Ctrl-C between them (see ``chunks.pxd``).
"""
from libc.stdlib cimport free, malloc

from chainerlite._core.argcheck cimport Span, aligned, overlap, span
from chainerlite._core.chunks cimport Chunks, chunks, cl_max_threads, next_chunk


cdef extern from "direct_conv.h" nogil:
    void cl_conv_forward_plain(const float* xp, const float* wt,
                               const float* bias, float* y, Py_ssize_t n,
                               Py_ssize_t cin, Py_ssize_t hp, Py_ssize_t wp,
                               Py_ssize_t cout, Py_ssize_t kh, Py_ssize_t kw)
    void cl_conv_forward_avx2(const float* xp, const float* wt,
                              const float* bias, float* y, Py_ssize_t n,
                              Py_ssize_t cin, Py_ssize_t hp, Py_ssize_t wp,
                              Py_ssize_t cout, Py_ssize_t kh, Py_ssize_t kw,
                              int parallel)
    void cl_conv_grad_weight_plain(const float* xp, const float* gy,
                                   float* gw, float* acc, Py_ssize_t n,
                                   Py_ssize_t cin, Py_ssize_t hp,
                                   Py_ssize_t wp, Py_ssize_t cout,
                                   Py_ssize_t kh, Py_ssize_t kw,
                                   Py_ssize_t ci0, Py_ssize_t ci1)
    void cl_conv_grad_weight_avx2(const float* xp, const float* gy,
                                  float* gw, float* acc, Py_ssize_t n,
                                  Py_ssize_t cin, Py_ssize_t hp,
                                  Py_ssize_t wp, Py_ssize_t cout,
                                  Py_ssize_t kh, Py_ssize_t kw,
                                  Py_ssize_t ci0, Py_ssize_t ci1,
                                  int parallel)
    int cl_avx2_supported()

#: Widest filter row of the AVX2 gradient (one register per tap).
DIRECT_CONV_MAX_KW = 8

cdef bint _SIMD = cl_avx2_supported()

#: Multiply-adds below which one thread does the work.
cdef Py_ssize_t PARALLEL_MIN = 1 << 22
#: Multiply-adds in a unit of work of chunks.pxd (the vector kernels do
#: several a nanosecond).
cdef Py_ssize_t MACS_PER_UNIT = 8


def direct_conv_simd():
    """Whether the AVX2/FMA kernels run on this CPU (and build)."""
    return _SIMD


cdef tuple _dims(Py_ssize_t* shape):
    return shape[0], shape[1], shape[2], shape[3]


cdef _check_shapes(str name, tuple xp, tuple w, tuple out):
    # xp (n, cin, hp, wp); w (cout, cin, kh, kw); out (n, cout, oh, ow)
    if (xp[1] != w[1] or out[0] != xp[0] or out[1] != w[0]
            or out[2] != xp[2] - w[2] + 1 or out[3] != xp[3] - w[3] + 1
            or out[2] < 1 or out[3] < 1):
        raise ValueError(
            '{}: shapes do not match: padded input {}, filters {}, output '
            '{}'.format(name, xp, w, out))


cdef inline Span _block(const float* data, Py_ssize_t size) noexcept nogil:
    # the bytes of a C-contiguous float32 array
    cdef Py_ssize_t itemsize = sizeof(float)
    return span(data, 1, &size, &itemsize, itemsize)


cdef int _check_memory(str name, float* out, Py_ssize_t n_out,
                       const float* a, Py_ssize_t n_a, const float* b,
                       Py_ssize_t n_b, const float* c,
                       Py_ssize_t n_c) except -1:
    # the C-contiguous arrays of a call (c NULL if absent) aligned, and the
    # output apart from the inputs
    cdef Py_ssize_t itemsize = sizeof(float)
    cdef Span s_out = _block(out, n_out)
    if not (aligned(out, 0, NULL, itemsize) and aligned(a, 0, NULL, itemsize)
            and aligned(b, 0, NULL, itemsize)
            and aligned(c, 0, NULL, itemsize)):
        raise ValueError('{}: an array is not aligned'.format(name))
    if (overlap(s_out, _block(a, n_a)) or overlap(s_out, _block(b, n_b))
            or c != NULL and overlap(s_out, _block(c, n_c))):
        raise ValueError('{}: the output overlaps an input'.format(name))
    return 0


def direct_conv_2d(const float[:, :, :, ::1] xp,
                   const float[:, :, :, ::1] wt, const float[::1] bias,
                   float[:, :, :, ::1] y, bint portable=False):
    """``y[b, o] = bias[o] + sum_c correlate(xp[b, c], W[o, c])``, valid
    positions only, with the filters given as ``wt = W.transpose(1, 2, 3,
    0)`` (C-contiguous ``(cin, kh, kw, cout)``). ``bias`` may be None."""
    cdef Py_ssize_t cout = wt.shape[3]
    _check_shapes('direct_conv_2d', _dims(xp.shape),
                  (cout, wt.shape[0], wt.shape[1], wt.shape[2]),
                  _dims(y.shape))
    if bias is not None and bias.shape[0] != cout:
        raise ValueError('direct_conv_2d: bias of length {} for {} output '
                         'channels'.format(bias.shape[0], cout))
    cdef const float* b = &bias[0] if bias is not None else NULL
    _check_memory('direct_conv_2d', &y[0, 0, 0, 0], y.size, &xp[0, 0, 0, 0],
                  xp.size, &wt[0, 0, 0, 0], wt.size, b, cout)
    cdef bint parallel = y.size * wt.size >= PARALLEL_MIN
    if y.shape[0] == 0 or cout == 0:
        return
    # the images (of y.size / n outputs of cin * kh * kw terms), in chunks
    cdef Py_ssize_t macs = y.size // y.shape[0] * (wt.size // cout)
    cdef Chunks todo = chunks(y.shape[0], macs // MACS_PER_UNIT,
                              cl_max_threads())
    while next_chunk(&todo):
        with nogil:
            if _SIMD and not portable:
                cl_conv_forward_avx2(
                    &xp[todo.begin, 0, 0, 0], &wt[0, 0, 0, 0], b,
                    &y[todo.begin, 0, 0, 0], todo.end - todo.begin,
                    xp.shape[1], xp.shape[2], xp.shape[3], cout, wt.shape[1],
                    wt.shape[2], parallel)
            else:
                cl_conv_forward_plain(
                    &xp[todo.begin, 0, 0, 0], &wt[0, 0, 0, 0], b,
                    &y[todo.begin, 0, 0, 0], todo.end - todo.begin,
                    xp.shape[1], xp.shape[2], xp.shape[3], cout, wt.shape[1],
                    wt.shape[2])


def direct_conv_2d_grad_weight(const float[:, :, :, ::1] xp,
                               const float[:, :, :, ::1] gy,
                               float[:, :, :, ::1] gw, bint portable=False):
    """``gw[o, c, i, j] = sum_b sum_yx gy[b, o, y, x] * xp[b, c, y + i,
    x + j]``: the gradient of :func:`direct_conv_2d`'s filters."""
    _check_shapes('direct_conv_2d_grad_weight', _dims(xp.shape),
                  _dims(gw.shape), _dims(gy.shape))
    _check_memory('direct_conv_2d_grad_weight', &gw[0, 0, 0, 0], gw.size,
                  &xp[0, 0, 0, 0], xp.size, &gy[0, 0, 0, 0], gy.size, NULL, 0)
    cdef bint simd = _SIMD and not portable and gw.shape[3] <= DIRECT_CONV_MAX_KW
    cdef float* acc = NULL
    cdef bint parallel = gy.size * (gw.size // max(gw.shape[0], 1)) >= PARALLEL_MIN
    if gw.shape[0] == 0 or gw.shape[1] == 0:
        return
    if not simd:
        acc = <float*>malloc(gy.shape[3] * sizeof(float))
        if acc == NULL:
            raise MemoryError()
    # the input channels (each gy.size * kh * kw terms), in chunks
    cdef Py_ssize_t macs = gy.size * gw.shape[2] * gw.shape[3]
    cdef Chunks todo = chunks(gw.shape[1], macs // MACS_PER_UNIT,
                              cl_max_threads())
    try:
        while next_chunk(&todo):
            with nogil:
                if simd:
                    cl_conv_grad_weight_avx2(
                        &xp[0, 0, 0, 0], &gy[0, 0, 0, 0], &gw[0, 0, 0, 0],
                        acc, xp.shape[0], xp.shape[1], xp.shape[2],
                        xp.shape[3], gw.shape[0], gw.shape[2], gw.shape[3],
                        todo.begin, todo.end, parallel)
                else:
                    cl_conv_grad_weight_plain(
                        &xp[0, 0, 0, 0], &gy[0, 0, 0, 0], &gw[0, 0, 0, 0],
                        acc, xp.shape[0], xp.shape[1], xp.shape[2],
                        xp.shape[3], gw.shape[0], gw.shape[2], gw.shape[3],
                        todo.begin, todo.end)
    finally:
        free(acc)
