"""Scatter-add of rows on the CPU: ``numpy.add.at(dst, (ids,), src)`` for a
2-D float32/float64 ``dst`` (the loop is in the C below), as the gradient
of an embedding lookup makes it.

:func:`add_rows` declines (returns None, having written nothing) what it
cannot do as NumPy does: another dtype or array type, arrays that are not
aligned C-contiguous blocks of the shapes described, ids of a dtype other
than int32/int64, a read-only ``dst``, ``dst`` overlapping an input, or an
id out of range (it checks every id before writing, and the caller's NumPy
code then raises NumPy's ``IndexError``). The rows are done in chunks, and
Ctrl-C is looked for between chunks (see ``chunks.pxd``).
"""
cimport numpy as cnp

from chainerlite._kernels.chunks cimport Chunks, chunks, next_chunk
from chainerlite._kernels.dtypes cimport float32, float64, int32, int64, descr_of

cnp.import_array()

#: ``numpy.add.at``'s sums, bit for bit: each row of ``dst`` adds its source
#: rows one at a time, in the order of the ids.
PRECISION = 'bitwise NumPy'


cdef extern from * nogil:
    """
    /* dst[ids[i]] += src[i] for each i in order, skipping ids equal to skip.
     *
     * numpy.add.at does the same additions in the same order, but goes through
     * its general indexing machinery for every row; this loop adds a row of
     * columns at a time, which the compiler vectorises (CL_CLONES,
     * dispatch.h). Additions alone, so no contraction can change a bit. The
     * ids were checked in range by the caller; a negative one counts from the
     * end, as in NumPy.
     */

    #include <stddef.h>
    #include <stdint.h>

    #include "dispatch.h"

    #define CL_ADD_ROWS(T, I, SUFFIX)                                           \
        CL_CLONES static void cl_add_rows_##SUFFIX(                             \
            T *dst, ptrdiff_t rows, ptrdiff_t cols, const I *ids,               \
            const T *src, ptrdiff_t begin, ptrdiff_t end, int has_skip,         \
            I skip) {                                                           \
            for (ptrdiff_t i = begin; i < end; i++) {                           \
                I id = ids[i];                                                  \
                if (has_skip && id == skip)                                     \
                    continue;                                                   \
                T *d = dst + (ptrdiff_t)(id < 0 ? id + rows : id) * cols;       \
                const T *s = src + i * cols;                                    \
                for (ptrdiff_t j = 0; j < cols; j++)                            \
                    d[j] = d[j] + s[j];                                         \
            }                                                                   \
        }

    CL_ADD_ROWS(float, int32_t, f32_i32)
    CL_ADD_ROWS(float, int64_t, f32_i64)
    CL_ADD_ROWS(double, int32_t, f64_i32)
    CL_ADD_ROWS(double, int64_t, f64_i64)
    """
    void cl_add_rows_f32_i32(float* dst, Py_ssize_t rows, Py_ssize_t cols,
                             const cnp.int32_t* ids, const float* src,
                             Py_ssize_t begin, Py_ssize_t end, int has_skip,
                             cnp.int32_t skip)
    void cl_add_rows_f32_i64(float* dst, Py_ssize_t rows, Py_ssize_t cols,
                             const cnp.int64_t* ids, const float* src,
                             Py_ssize_t begin, Py_ssize_t end, int has_skip,
                             cnp.int64_t skip)
    void cl_add_rows_f64_i32(double* dst, Py_ssize_t rows, Py_ssize_t cols,
                             const cnp.int32_t* ids, const double* src,
                             Py_ssize_t begin, Py_ssize_t end, int has_skip,
                             cnp.int32_t skip)
    void cl_add_rows_f64_i64(double* dst, Py_ssize_t rows, Py_ssize_t cols,
                             const cnp.int64_t* ids, const double* src,
                             Py_ssize_t begin, Py_ssize_t end, int has_skip,
                             cnp.int64_t skip)


cdef bint _block(object a, int ndim):
    # an aligned C-contiguous ndarray of ndim dimensions
    return (type(a) is cnp.ndarray
            and cnp.PyArray_NDIM(<cnp.ndarray>a) == ndim
            and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray>a)
            and cnp.PyArray_ISALIGNED(<cnp.ndarray>a))


cdef bint _apart(cnp.ndarray a, cnp.ndarray b):
    cdef char* sa = <char*>cnp.PyArray_DATA(a)
    cdef char* sb = <char*>cnp.PyArray_DATA(b)
    return (sa + cnp.PyArray_NBYTES(a) <= sb
            or sb + cnp.PyArray_NBYTES(b) <= sa)


cdef bint _in_range(cnp.ndarray ids, Py_ssize_t rows, bint has_skip,
                    cnp.int64_t skip):
    cdef Py_ssize_t i, n = cnp.PyArray_SIZE(ids)
    cdef cnp.int64_t id
    cdef bint wide = descr_of(ids) is int64()
    cdef const cnp.int64_t* i64 = <const cnp.int64_t*>cnp.PyArray_DATA(ids)
    cdef const cnp.int32_t* i32 = <const cnp.int32_t*>cnp.PyArray_DATA(ids)
    with nogil:
        for i in range(n):
            id = i64[i] if wide else i32[i]
            if (id < -rows or id >= rows) and not (has_skip and id == skip):
                return False
    return True


def add_rows(dst, ids, src, skip=None):
    """Adds each row ``src[i]`` to ``dst[ids[i]]`` in place, in the order of
    ``i``, leaving out the rows whose id is ``skip`` (an int, or None to
    leave out none): returns ``dst``, or None (nothing written) where it
    declines.

    ``dst`` is ``(rows, cols)``, ``ids`` 1-D of length ``n``, ``src``
    ``(n, cols)``.
    """
    if not (_block(dst, 2) and _block(ids, 1) and _block(src, 2)):
        return None
    cdef cnp.ndarray d = <cnp.ndarray>dst
    cdef cnp.ndarray x = <cnp.ndarray>ids
    cdef cnp.ndarray s = <cnp.ndarray>src
    if descr_of(d) is not float32() and descr_of(d) is not float64():
        return None
    if descr_of(s) is not descr_of(d) or not cnp.PyArray_ISWRITEABLE(d):
        return None
    if descr_of(x) is not int32() and descr_of(x) is not int64():
        return None
    cdef Py_ssize_t rows = d.shape[0], cols = d.shape[1], n = x.shape[0]
    if s.shape[0] != n or s.shape[1] != cols:
        return None
    if not (_apart(d, x) and _apart(d, s)):
        return None
    cdef bint has_skip = skip is not None
    cdef bint wide = descr_of(x) is int64()
    if has_skip and (type(skip) is not int
                     or not (-2**31 <= skip < 2**31 or wide and -2**63 <= skip < 2**63)):
        return None
    cdef cnp.int64_t c_skip = skip if has_skip else 0
    if not _in_range(x, rows, has_skip, c_skip):
        return None
    cdef bint single = descr_of(d) is float32()
    cdef void* dd = cnp.PyArray_DATA(d)
    cdef void* xd = cnp.PyArray_DATA(x)
    cdef void* sd = cnp.PyArray_DATA(s)
    # a row: about cols / 4 units of work (see chunks.pxd)
    cdef Chunks todo = chunks(n, cols // 4 + 1, 1)
    while next_chunk(&todo):
        with nogil:
            if single and wide:
                cl_add_rows_f32_i64(<float*>dd, rows, cols,
                                    <const cnp.int64_t*>xd, <const float*>sd,
                                    todo.begin, todo.end, has_skip, c_skip)
            elif single:
                cl_add_rows_f32_i32(<float*>dd, rows, cols,
                                    <const cnp.int32_t*>xd, <const float*>sd,
                                    todo.begin, todo.end, has_skip,
                                    <cnp.int32_t>c_skip)
            elif wide:
                cl_add_rows_f64_i64(<double*>dd, rows, cols,
                                    <const cnp.int64_t*>xd, <const double*>sd,
                                    todo.begin, todo.end, has_skip, c_skip)
            else:
                cl_add_rows_f64_i32(<double*>dd, rows, cols,
                                    <const cnp.int32_t*>xd, <const double*>sd,
                                    todo.begin, todo.end, has_skip,
                                    <cnp.int32_t>c_skip)
    return dst
