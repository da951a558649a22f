# build: openmp
# (OpenMP threads share the elements)
"""Copies of large strided float32/float64 arrays into new arrays, with
the elements shared by OpenMP's threads (the loop is in the C below).

NumPy copies on one thread: a reshape that cannot be a view (of a
transposed array, say) and ``numpy.stack``. :func:`c_copy` gives a
C-contiguous copy, :func:`reshaped_copy` the copy that ``x.reshape(shape)``
makes (the compiled Reshape calls it first), :func:`stack` the stack of
arrays of one shape along a new axis (F.stack's forward, F.separate's
backward). Elements are moved as bits, so the results are NumPy's bit for
bit. They return None, and the caller keeps NumPy, where they do not apply:
fewer than ``PARALLEL_MIN_WORK`` elements (in each array stacked) or one
thread allowed, another dtype or array type, arrays that are not aligned
or differ in dtype or shape; and :func:`reshaped_copy` where NumPy would
give a view. Ctrl-C is looked for between chunks (``chunks.pxd``).
"""
cimport numpy as cnp
from cython.parallel cimport prange

from chainerlite._kernels.chunks cimport (
    PARALLEL_MIN_WORK, Chunks, chunks, cl_max_threads, cut, next_chunk,
    parts_of)
from chainerlite._kernels.dtypes cimport float32, float64, descr_of

import numpy

cnp.import_array()

#: Copies: NumPy's bits.
PRECISION = 'bitwise NumPy'

cdef extern from * nogil:
    """
    #include <stddef.h>
    #include <stdint.h>
    #include <string.h>

    #define CL_COPY_MAXDIM 64

    /* Elements [e0, e1), in C order of the shape dims[0..nd), of the array
     * at src (byte strides ss) into the array at dst (byte strides ds),
     * moved as unsigned integers of the element's size. */
    #define CL_COPY_LOOP(T, SUFFIX)                                            \\
        static void cl_copy_##SUFFIX(                                          \\
            const char *src, char *dst, int nd, const ptrdiff_t *dims,         \\
            const ptrdiff_t *ss, const ptrdiff_t *ds, ptrdiff_t e0,            \\
            ptrdiff_t e1) {                                                    \\
            ptrdiff_t idx[CL_COPY_MAXDIM], rest = e0, e = e0;                  \\
            ptrdiff_t n = dims[nd - 1], sl = ss[nd - 1], dl = ds[nd - 1];      \\
            for (int k = nd - 1; k >= 0; k--) {                                \\
                idx[k] = rest % dims[k];                                       \\
                rest /= dims[k];                                               \\
                src += idx[k] * ss[k];                                         \\
                dst += idx[k] * ds[k];                                         \\
            }                                                                  \\
            while (e < e1) {                                                   \\
                ptrdiff_t len = n - idx[nd - 1];                               \\
                if (len > e1 - e) len = e1 - e;                                \\
                if (sl == sizeof(T) && dl == sizeof(T)) {                      \\
                    memcpy(dst, src, (size_t)len * sizeof(T));                 \\
                } else {                                                       \\
                    for (ptrdiff_t i = 0; i < len; i++)                        \\
                        *(T *)(dst + i * dl) = *(const T *)(src + i * sl);     \\
                }                                                              \\
                e += len;                                                      \\
                if (e >= e1) break;                                            \\
                /* on to the start of the next row */                          \\
                src -= idx[nd - 1] * sl;                                       \\
                dst -= idx[nd - 1] * dl;                                       \\
                idx[nd - 1] = 0;                                               \\
                for (int k = nd - 2; k >= 0; k--) {                            \\
                    idx[k]++;                                                  \\
                    src += ss[k];                                              \\
                    dst += ds[k];                                              \\
                    if (idx[k] < dims[k]) break;                               \\
                    src -= dims[k] * ss[k];                                    \\
                    dst -= dims[k] * ds[k];                                    \\
                    idx[k] = 0;                                                \\
                }                                                              \\
            }                                                                  \\
        }

    CL_COPY_LOOP(uint32_t, u32)
    CL_COPY_LOOP(uint64_t, u64)
    """
    enum: CL_COPY_MAXDIM
    void cl_copy_u32(const char* src, char* dst, int nd,
                     const Py_ssize_t* dims, const Py_ssize_t* ss,
                     const Py_ssize_t* ds, Py_ssize_t e0, Py_ssize_t e1)
    void cl_copy_u64(const char* src, char* dst, int nd,
                     const Py_ssize_t* dims, const Py_ssize_t* ss,
                     const Py_ssize_t* ds, Py_ssize_t e0, Py_ssize_t e1)


cdef bint _plain(x):
    # an aligned float32/float64 ndarray (any strides)
    if type(x) is not cnp.ndarray:
        return False
    cdef cnp.ndarray a = <cnp.ndarray>x
    d = descr_of(a)
    return (d is float32() or d is float64()) and cnp.PyArray_ISALIGNED(a)


cdef int _copy(cnp.ndarray src, cnp.ndarray dst) except -1:
    # src into dst (same shape and dtype, no overlap), by the threads
    cdef Py_ssize_t dims[CL_COPY_MAXDIM]
    cdef Py_ssize_t ss[CL_COPY_MAXDIM]
    cdef Py_ssize_t ds[CL_COPY_MAXDIM]
    cdef int k, nd = 0
    # the axes of more than one element, each merged into the one before
    # where both arrays step over the pair as over one axis
    for k in range(cnp.PyArray_NDIM(src)):
        if cnp.PyArray_DIM(src, k) == 1:
            continue
        if (nd and ss[nd - 1] == cnp.PyArray_STRIDE(src, k)
                * cnp.PyArray_DIM(src, k)
                and ds[nd - 1] == cnp.PyArray_STRIDE(dst, k)
                * cnp.PyArray_DIM(src, k)):
            dims[nd - 1] *= cnp.PyArray_DIM(src, k)
            ss[nd - 1] = cnp.PyArray_STRIDE(src, k)
            ds[nd - 1] = cnp.PyArray_STRIDE(dst, k)
            continue
        dims[nd] = cnp.PyArray_DIM(src, k)
        ss[nd] = cnp.PyArray_STRIDE(src, k)
        ds[nd] = cnp.PyArray_STRIDE(dst, k)
        nd += 1
    if nd == 0:  # one element
        dims[0] = 1
        ss[0] = ds[0] = cnp.PyArray_ITEMSIZE(src)
        nd = 1
    cdef bint wide = cnp.PyArray_ITEMSIZE(src) == 8
    cdef const char* s = <const char*>cnp.PyArray_DATA(src)
    cdef char* d = <char*>cnp.PyArray_DATA(dst)
    cdef int threads = cl_max_threads()
    cdef int parts
    cdef Py_ssize_t t
    # an element: about 1 unit of work (see chunks.pxd), memory bound
    cdef Chunks todo = chunks(cnp.PyArray_SIZE(src), 1, threads)
    while next_chunk(&todo):
        parts = parts_of(todo.end - todo.begin, 1, threads)
        with nogil:
            for t in prange(parts, schedule='static', num_threads=parts,
                            use_threads_if=parts > 1):
                if wide:
                    cl_copy_u64(s, d, nd, dims, ss, ds,
                                cut(todo.begin, todo.end, parts, t),
                                cut(todo.begin, todo.end, parts, t + 1))
                else:
                    cl_copy_u32(s, d, nd, dims, ss, ds,
                                cut(todo.begin, todo.end, parts, t),
                                cut(todo.begin, todo.end, parts, t + 1))
    return 0


cdef bint _shared(x):
    # whether the threads copy x: large, plain, more than one thread
    return (_plain(x) and cnp.PyArray_SIZE(<cnp.ndarray>x) >= PARALLEL_MIN_WORK
            and cl_max_threads() > 1)


cdef cnp.ndarray _c_copy(cnp.ndarray x):
    cdef cnp.ndarray y = cnp.PyArray_EMPTY(
        cnp.PyArray_NDIM(x), cnp.PyArray_DIMS(x), cnp.PyArray_TYPE(x), 0)
    _copy(x, y)
    return y


cdef bint _needs_copy(cnp.ndarray x, tuple shape) except -1:
    # whether NumPy's x.reshape(shape) (C order) copies: the axes of x of
    # more than one element fall into groups, one for each run of new axes
    # of the same number of elements, and a group that x does not step
    # over as over one axis (each stride its successor's times its length)
    # is a copy
    cdef list old = [k for k in range(cnp.PyArray_NDIM(x))
                     if cnp.PyArray_DIM(x, k) != 1]
    cdef list new = []
    cdef Py_ssize_t known = 1, d
    for d in shape:
        if d >= 0:
            known *= d
    for d in shape:
        new.append(d if d >= 0 else
                   (cnp.PyArray_SIZE(x) // known if known else 0))
    cdef Py_ssize_t i = 0, j = 0, i2, j2, po, pn, k
    while i < len(old) and j < len(new):
        po, pn = cnp.PyArray_DIM(x, old[i]), new[j]
        i2, j2 = i + 1, j + 1
        while po != pn:
            if pn < po:
                if j2 == len(new):
                    return True  # sizes differ: NumPy raises
                pn *= new[j2]
                j2 += 1
            else:
                if i2 == len(old):
                    return True
                po *= cnp.PyArray_DIM(x, old[i2])
                i2 += 1
        for k in range(i, i2 - 1):
            if (cnp.PyArray_STRIDE(x, old[k]) != cnp.PyArray_STRIDE(
                    x, old[k + 1]) * cnp.PyArray_DIM(x, old[k + 1])):
                return True
        i, j = i2, j2
    return False


cdef object reshaped_copy(x, shape):
    """``x.reshape(shape)`` by the threads' copy where NumPy would copy a
    large array (x not C-contiguous, no view of that shape), or None."""
    if type(x) is not cnp.ndarray:
        return None
    cdef cnp.ndarray a = <cnp.ndarray>x
    if (cnp.PyArray_IS_C_CONTIGUOUS(a) or not _shared(a)
            or not _needs_copy(a, tuple(shape))):
        return None
    return _c_copy(a).reshape(shape)


def c_copy(x):
    """A new C-contiguous copy of ``x`` made by the threads, or None."""
    return _c_copy(<cnp.ndarray>x) if _shared(x) else None


def needs_copy(x, shape):
    """Whether NumPy's ``x.reshape(shape)`` copies x (for tests)."""
    if type(x) is not cnp.ndarray:
        raise TypeError('needs_copy: x must be a numpy.ndarray, not %s'
                        % type(x).__name__)
    return _needs_copy(<cnp.ndarray>x, tuple(shape))


def reshaped(x, shape):
    """:func:`reshaped_copy` from Python (for tests)."""
    return reshaped_copy(x, shape)


def stack(xs, int axis=0):
    """``numpy.stack(xs, axis)`` by the threads, or None (also where xs is
    not a list or tuple of arrays, or axis is out of range)."""
    if type(xs) is not list and type(xs) is not tuple or not xs:
        return None
    x0 = xs[0]
    if not _plain(x0):
        return None
    cdef cnp.ndarray first = <cnp.ndarray>x0
    cdef int nd = cnp.PyArray_NDIM(first)
    if axis < -nd - 1 or axis > nd:
        return None
    if axis < 0:
        axis += nd + 1
    for x in xs:
        if (not _plain(x) or descr_of(<cnp.ndarray>x) is not descr_of(first)
                or not cnp.PyArray_SAMESHAPE(<cnp.ndarray>x, first)):
            return None
    if cl_max_threads() < 2 or cnp.PyArray_SIZE(first) < PARALLEL_MIN_WORK:
        return None
    shape = x0.shape[:axis] + (len(xs),) + x0.shape[axis:]
    cdef cnp.ndarray out = numpy.empty(shape, x0.dtype)
    lead = (slice(None),) * axis
    for i, x in enumerate(xs):
        _copy(<cnp.ndarray>x, out[lead + (i,)])
    return out
