# build: openmp
# (only for OpenMP's thread count: Python threads share the rows, see below)
"""Softmax cross entropy of hard labels on a 2-D float32/float64 NumPy
array: the loss in three passes over the rows, the gradient in two.

The loops do NumPy's operations in its order, so that the results are those
of the general code bit for bit in the same process: ``x - max`` and
``(x - max) - log_s`` in the dtype of ``x``, ``exp`` and ``log`` by NumPy
itself (its vectorized float32 ``exp`` rounds differently from the C
library's), the sums of each row and of the losses in the order of the
running NumPy's ``sum``. That order depends on NumPy's version: before 2.3
a sum along a contiguous axis adds, to +0, the pairwise sums of pieces of
``numpy.getbufsize()`` elements (8192 by default) one after the other, as
its reduction iterator hands them over; from 2.3 on it adds the pairwise
sum of the whole row. So a row of more than 8192 classes (a 10,000-word
vocabulary) has sums, hence losses and gradients, whose last bits depend on
the NumPy version, in the general code and here alike. The loss of a row is
``-log_y[n, t_n]`` picked directly instead of the sum of a one-hot product
(whose other terms are zeros), and nothing of size ``x`` is kept for the
gradient: it recomputes ``y`` from the maximum and ``log_s`` of each row.

The passes go over blocks of rows small enough to stay in the CPU's cache
(``x - max``, its ``exp`` and its sums; the gradient's ``log_y``, ``exp``
and scaling), so that the rows travel from memory once per direction and
the forward's scratch is one block, not an array of the size of ``x``.
Ctrl-C is looked for between blocks (see ``chunks.pxd``).

Large arrays have their rows split into parts run side by side by Python
threads (``row_threads``; as many as OpenMP's thread count, ``OMP_NUM_THREADS``),
each part with its own block: the compiled loops release the GIL and
NumPy's ``exp`` does too, and every row is computed by one thread as in
one pass, so the results do not depend on the thread count.

Both functions return None where they do not apply (another dtype, rank or
array type, a layout that is not C-contiguous, labels that are not 1-D
int32/int64, an empty batch, a label out of range), and the caller keeps its
general code.
"""
cimport numpy as cnp
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.math cimport HUGE_VAL as _HUGE_VAL
from libc.stdint cimport int32_t, int64_t

from chainerlite._kernels.chunks cimport Chunks, chunks, cl_max_threads, next_chunk
from chainerlite._kernels.dtypes cimport float32, float64, int32, int64, intp, descr_of

import numpy

from chainerlite._kernels import row_threads

cnp.import_array()

#: The general NumPy path of softmax_cross_entropy under the same NumPy,
#: bit for bit (any NaN for any NaN): the sums follow its version (above).
PRECISION = 'bitwise NumPy'

ctypedef fused real:
    float
    double

ctypedef fused label:
    int32_t
    int64_t

cdef object _exp = numpy.exp
cdef object _log = numpy.log


#: Whether NumPy's sums go in pieces of its buffer size (before 2.3, whose
#: iterator changes gave reductions whole rows; the tests check the sums
#: against NumPy's on both sides of the change)
cdef bint _SUMS_IN_PIECES = (
    numpy.lib.NumpyVersion(numpy.__version__) < '2.3.0')
# numpy.getbufsize is Python code, whose call runs the handlers of pending
# signals (Ctrl-C would be raised before the kernel ran): the C function
# under it reads the same per-thread setting, as a list on NumPy 1 and a
# dict on NumPy 2.0 to 2.2
cdef object _extobj = None
if _SUMS_IN_PIECES:
    try:
        from numpy._core.umath import _get_extobj_dict as _extobj
    except ImportError:
        from numpy.core.umath import geterrobj as _extobj

# NumPy's pairwise summation: blocks of up to 128 sums with 8 accumulators
cdef enum:
    _PW_BLOCK = 128


cdef real _pairwise_sum(const real* a, Py_ssize_t n) noexcept nogil:
    # NumPy's order for a contiguous float sum, so that the rounding (and
    # hence the loss) is the same as x.sum(axis=1)
    cdef real res, r0, r1, r2, r3, r4, r5, r6, r7
    cdef Py_ssize_t i, n2
    if n < 8:
        res = 0
        for i in range(n):
            res += a[i]
        return res
    if n <= _PW_BLOCK:
        r0, r1, r2, r3 = a[0], a[1], a[2], a[3]
        r4, r5, r6, r7 = a[4], a[5], a[6], a[7]
        i = 8
        while i < n - n % 8:
            r0 += a[i]
            r1 += a[i + 1]
            r2 += a[i + 2]
            r3 += a[i + 3]
            r4 += a[i + 4]
            r5 += a[i + 5]
            r6 += a[i + 6]
            r7 += a[i + 7]
            i += 8
        res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        while i < n:
            res += a[i]
            i += 1
        return res
    n2 = n // 2
    n2 -= n2 % 8
    return _pairwise_sum(a, n2) + _pairwise_sum(a + n2, n - n2)


cdef real _numpy_sum(const real* a, Py_ssize_t n, Py_ssize_t piece) noexcept nogil:
    # a contiguous run summed as NumPy's sum does: +0 plus the pairwise sum
    # of each piece of ``piece`` elements in turn (0: one piece)
    cdef real res = 0
    cdef Py_ssize_t i = 0
    if piece <= 0 or piece >= n:
        return res + _pairwise_sum(a, n)
    while i < n:
        res += _pairwise_sum(a + i, piece if n - i > piece else n - i)
        i += piece
    return res


cdef Py_ssize_t _sum_piece() except -1:
    # the pieces of NumPy's sums now (0: whole rows); the buffer size is
    # the calling thread's setting (numpy.setbufsize)
    if not _SUMS_IN_PIECES:
        return 0
    settings = _extobj()
    return settings['bufsize'] if isinstance(settings, dict) else settings[0]


cdef Py_ssize_t _read_labels(
        const label* t, Py_ssize_t* k, Py_ssize_t n, Py_ssize_t c,
        int64_t ignore) noexcept nogil:
    """Copies the labels into k, -1 for an ignored row.

    Returns the number of rows that are not ignored, or -1 at the first
    label out of range (the caller raises).
    """
    cdef Py_ssize_t i, valid = 0
    cdef int64_t v
    for i in range(n):
        v = t[i]
        if v == ignore:
            k[i] = -1
        elif v < 0 or v >= c:
            return -1
        else:
            k[i] = <Py_ssize_t>v
            valid += 1
    return valid


cdef inline void _row_range(
        const real* a, Py_ssize_t n, real* hi_out, real* lo_out) noexcept nogil:
    # The largest and smallest of a row, with 8 independent lanes (a loop
    # the compiler vectorizes). NaN is skipped unless a[0] is NaN: a NaN row
    # still gets a NaN log of the sum of exponentials, hence NaN results.
    cdef real hi[8]
    cdef real lo[8]
    cdef real v
    cdef Py_ssize_t j = 0, q
    for q in range(8):
        hi[q] = a[0]
        lo[q] = a[0]
    while j + 8 <= n:
        for q in range(8):
            v = a[j + q]
            hi[q] = v if v > hi[q] else hi[q]
            lo[q] = v if v < lo[q] else lo[q]
        j += 8
    while j < n:
        v = a[j]
        hi[0] = v if v > hi[0] else hi[0]
        lo[0] = v if v < lo[0] else lo[0]
        j += 1
    for q in range(1, 8):
        hi[0] = hi[q] if hi[q] > hi[0] else hi[0]
        lo[0] = lo[q] if lo[q] < lo[0] else lo[0]
    hi_out[0] = hi[0]
    lo_out[0] = lo[0]


cdef void _rows_shift(const real* x, real* shifted, real* m_out,
                      char* finite, Py_ssize_t i0, Py_ssize_t i1,
                      Py_ssize_t c) noexcept nogil:
    # x - max of each row, the maximum, and whether x - max is all finite
    # but for NaN (which the log of the sum of exponentials shows)
    cdef Py_ssize_t i, j
    cdef const real* row
    cdef real* out
    cdef real m, low
    for i in range(i0, i1):
        row = x + i * c
        out = shifted + i * c
        _row_range(row, c, &m, &low)
        m_out[i] = m
        for j in range(c):
            out[j] = row[j] - m
        # an infinite maximum, or -inf in x - max, fails
        finite[i] = m - m == 0 and <real>(low - m) > -_HUGE_VAL


cdef void _rows_sum(const real* e, real* s, Py_ssize_t i0, Py_ssize_t i1,
                    Py_ssize_t c, Py_ssize_t piece) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(i0, i1):
        s[i] = _numpy_sum(e + i * c, c, piece)


cdef void _rows_loss(
        const real* x, const Py_ssize_t* k, const real* m, const real* log_s,
        const char* finite, real* scratch, real* loss, Py_ssize_t i0,
        Py_ssize_t i1, Py_ssize_t c, Py_ssize_t piece) noexcept nogil:
    # The general code sums w * log_y over the row, with log_y
    # = (x - max) - log_s and w the one-hot label row (all zero for an
    # ignored row). Where log_y is all finite that sum is +0 plus the
    # picked value (the other terms are signed zeros); otherwise (-inf
    # logits) the product sum is formed as written, NaN included.
    cdef Py_ssize_t i, j
    cdef real v
    for i in range(i0, i1):
        if finite[i] and log_s[i] - log_s[i] == 0:
            if k[i] < 0:
                loss[i] = -(<real>0)
            else:
                v = <real>(x[i * c + k[i]] - m[i]) - log_s[i]
                loss[i] = -(<real>0 + v)
            continue
        for j in range(c):
            v = <real>(x[i * c + j] - m[i]) - log_s[i]
            scratch[j] = (<real>1 if j == k[i] else <real>0) * v
        loss[i] = -_numpy_sum(scratch, c, piece)


cdef void _rows_log_y(
        const real* x, const real* m, const real* log_s, real* out,
        Py_ssize_t i0, Py_ssize_t i1, Py_ssize_t c) noexcept nogil:
    cdef Py_ssize_t i, j
    for i in range(i0, i1):
        for j in range(c):
            out[i * c + j] = <real>(x[i * c + j] - m[i]) - log_s[i]


cdef void _rows_grad(
        const Py_ssize_t* k, const real* g, Py_ssize_t g_step, real* gx,
        Py_ssize_t i0, Py_ssize_t i1, Py_ssize_t c) noexcept nogil:
    # gx holds y; it becomes g * (y * sum(w) - w) with w the one-hot label
    # row (all zero, of sum 0, for an ignored row), rounded as written
    cdef Py_ssize_t i, j
    cdef real* row
    cdef real gi, y_k
    for i in range(i0, i1):
        row = gx + i * c
        gi = g[i * g_step]
        if k[i] < 0:
            for j in range(c):
                row[j] = gi * (row[j] * <real>0 - <real>0)
            continue
        y_k = row[k[i]]
        # y * 1 - 0 is y: only the label's entry subtracts
        for j in range(c):
            row[j] = gi * row[j]
        row[k[i]] = gi * (y_k - <real>1)


cdef struct Rows:
    # the C-contiguous arrays of a call (those of x's dtype untyped)
    const void* x
    # e: forward: x - max, then exp of it, then scratch; backward: the
    # gradient
    void* e
    void* m           # the maximum of each row
    void* s           # the sum of its exponentials, then the log of it
    void* loss
    const Py_ssize_t* k
    char* finite
    const void* g
    Py_ssize_t g_step
    Py_ssize_t c
    Py_ssize_t piece  # of the sums (_sum_piece)


cdef enum Pass:
    SHIFT, SUM, LOSS, LOG_Y, GRAD


cdef void _pass_rows(Pass which, const Rows* r, Py_ssize_t i0, Py_ssize_t i1,
                     const real* x) noexcept nogil:
    # one pass over the rows [i0, i1); x is r.x, typed
    cdef real* e = <real*>r.e
    cdef real* m = <real*>r.m
    cdef real* s = <real*>r.s
    if which == SHIFT:
        _rows_shift(x, e, m, r.finite, i0, i1, r.c)
    elif which == SUM:
        _rows_sum(e, s, i0, i1, r.c, r.piece)
    elif which == LOSS:
        _rows_loss(x, r.k, m, s, r.finite, e, <real*>r.loss, i0, i1, r.c,
                   r.piece)
    elif which == LOG_Y:
        _rows_log_y(x, m, s, e, i0, i1, r.c)
    else:
        _rows_grad(r.k, <const real*>r.g, r.g_step, e, i0, i1, r.c)


cdef int _run(Pass which, const Rows* r, Py_ssize_t n, bint f32) except -1:
    # the pass over all n rows, in chunks (see chunks.pxd; an element is
    # about 2 units of work)
    cdef Chunks todo = chunks(n, 2 * r.c, 1)
    while next_chunk(&todo):
        with nogil:
            if f32:
                _pass_rows(which, r, todo.begin, todo.end, <const float*>r.x)
            else:
                _pass_rows(which, r, todo.begin, todo.end,
                           <const double*>r.x)
    return 0


#: Bytes of a block of rows (x - max or the gradient) that the passes of
#: a block share while it stays in the CPU's second-level cache.
cdef Py_ssize_t BLOCK_BYTES = 1 << 18


#: Units of work (chunks.pxd) of an element in the passes of a block.
cdef enum:
    _BLOCK_WORK = 8


cdef int _in_block(Pass which, const Rows* r, Py_ssize_t b, bint f32) except -1:
    # one pass over the first b rows of r, a block inside a chunk (the
    # chunk looks for Ctrl-C)
    with nogil:
        if f32:
            _pass_rows(which, r, 0, b, <const float*>r.x)
        else:
            _pass_rows(which, r, 0, b, <const double*>r.x)
    return 0


cdef Py_ssize_t _block_rows(Py_ssize_t c, Py_ssize_t item) noexcept:
    cdef Py_ssize_t rows = BLOCK_BYTES // (c * item)
    return rows if rows > 0 else 1


cdef Rows _from_row(const Rows* r, Py_ssize_t i, Py_ssize_t item) noexcept:
    # r seen from row i on: its row arrays start at row i (e holds one
    # block, from its start, unless ``whole``)
    cdef Rows b = r[0]
    b.x = <const char*>r.x + i * r.c * item
    b.m = <char*>r.m + i * item
    b.s = <char*>r.s + i * item
    b.k = r.k + i
    if r.finite != NULL:
        b.finite = r.finite + i
    if r.g != NULL:
        b.g = <const char*>r.g + i * r.g_step * item
    return b


cdef inline bint _is_block(cnp.ndarray a):
    # one aligned C-ordered block: the loops index it as a C array
    return cnp.PyArray_IS_C_CONTIGUOUS(a) and cnp.PyArray_ISALIGNED(a)


cdef inline bint _is_matrix(x):
    # a C-contiguous 2-D float32/float64 NumPy array with rows and classes
    if type(x) is not cnp.ndarray:
        return False
    cdef cnp.ndarray a = <cnp.ndarray>x
    if a.ndim != 2 or not _is_block(a):
        return False
    if descr_of(a) is not float32() and descr_of(a) is not float64():
        return False
    return a.shape[0] > 0 and a.shape[1] > 0


cdef inline bint _as_int64(object value, int64_t* out):
    # False where the ignore label is not an integer that int64 holds
    if not isinstance(value, (int, numpy.integer)):
        return False
    try:
        out[0] = value
    except OverflowError:
        return False
    return True


cdef Py_ssize_t _labels(cnp.ndarray t, cnp.ndarray k, Py_ssize_t c,
                        int64_t ignore):
    cdef Py_ssize_t n = k.shape[0], valid
    cdef void* pt = cnp.PyArray_DATA(t)
    cdef Py_ssize_t* pk = <Py_ssize_t*>cnp.PyArray_DATA(k)
    cdef bint i32 = descr_of(t) is int32()
    with nogil:
        if i32:
            valid = _read_labels(<const int32_t*>pt, pk, n, c, ignore)
        else:
            valid = _read_labels(<const int64_t*>pt, pk, n, c, ignore)
    return valid


cdef object _mean(cnp.ndarray loss, Py_ssize_t count, Py_ssize_t piece):
    # loss.sum() * dtype(1 / max(count, 1)) as a 0-d array, and the factor
    cdef double coeff = 1.0 / (count if count > 1 else 1)
    cdef Py_ssize_t n = loss.shape[0]
    cdef cnp.ndarray out = cnp.PyArray_EMPTY(0, NULL, loss.descr.type_num, 0)
    if descr_of(loss) is float32():
        (<float*>cnp.PyArray_DATA(out))[0] = _numpy_sum(
            <const float*>cnp.PyArray_DATA(loss), n, piece) * <float>coeff
    else:
        (<double*>cnp.PyArray_DATA(out))[0] = _numpy_sum(
            <const double*>cnp.PyArray_DATA(loss), n, piece) * coeff
    return out, coeff


#: Elements below which the rows stay on the calling thread: a part in
#: another thread costs some tens of microseconds to hand over.
cdef enum:
    _PARALLEL_MIN_ELEMENTS = 1 << 18


cdef class _Blocks:
    """The block passes of one call over a part of its rows, the part given
    to :meth:`run`: forward, ``x - max``, its ``exp`` and sums; backward,
    ``log_y``, its ``exp`` and the gradient (in the rows of ``out``)."""

    cdef Rows r
    cdef bint forward, f32
    cdef bint stopped
    cdef Py_ssize_t item, rows
    cdef int typ
    cdef object out

    def run(self, Py_ssize_t begin, Py_ssize_t end):
        cdef Py_ssize_t c = self.r.c, i, b
        cdef Rows part
        cdef cnp.ndarray e = None
        cdef cnp.npy_intp shape[2]
        if self.forward:
            # this part's block of x - max, then of its exponentials
            shape[0] = self.rows if self.rows < end - begin else end - begin
            shape[1] = c
            e = cnp.PyArray_EMPTY(2, shape, self.typ, 0)
        cdef Chunks todo = chunks(end - begin, _BLOCK_WORK * c, 1)
        while next_chunk(&todo) and not self.stopped:
            for i in range(begin + todo.begin, begin + todo.end, self.rows):
                b = self.rows if begin + todo.end - i > self.rows else begin + todo.end - i
                part = _from_row(&self.r, i, self.item)
                if self.forward:
                    part.e = cnp.PyArray_DATA(e)
                    _in_block(SHIFT, &part, b, self.f32)
                    # NumPy's exp, so that the results are its own bit for bit
                    _exp(e[:b], e[:b])
                    _in_block(SUM, &part, b, self.f32)
                else:
                    part.e = <char*>self.r.e + i * c * self.item
                    _in_block(LOG_Y, &part, b, self.f32)
                    block = self.out[i:i + b]
                    _exp(block, block)
                    _in_block(GRAD, &part, b, self.f32)

    def stop(self):
        self.stopped = True

    cdef share(self, Py_ssize_t n):
        # the n rows in parts, one per thread where they are many
        cdef int threads = cl_max_threads()
        cdef Py_ssize_t parts = 1
        if threads > 1 and n * self.r.c >= _PARALLEL_MIN_ELEMENTS:
            parts = threads if threads < n else n
        if parts == 1:
            self.run(0, n)  # no Python code before the first chunk
        else:
            row_threads.run_parts(self.run, n, parts, self.stop)


cdef _Blocks _blocks(const Rows* r, bint forward, cnp.ndarray x, object out):
    cdef _Blocks blocks = _Blocks.__new__(_Blocks)
    blocks.r = r[0]
    blocks.forward = forward
    blocks.f32 = x.descr.type_num == cnp.NPY_FLOAT32
    blocks.typ = x.descr.type_num
    blocks.item = x.descr.itemsize
    blocks.rows = _block_rows(r.c, blocks.item)
    blocks.stopped = False
    blocks.out = out
    return blocks


cdef object sce_forward_array(x, t, object ignore_label, int mode):
    """The loss, what the gradient needs, and the factor of the mean.

    ``mode`` is 0 for ``reduce='no'`` (the factor is None), 1 for the mean
    over the rows that are not ignored, 2 for the mean over all rows.
    Returns ``(loss, stats, coeff)`` with ``stats`` an opaque tuple for
    :func:`sce_backward_array`; None where the arrays are not handled or a
    label is out of range (the general code then raises).
    """
    cdef int64_t ignore
    if not _is_matrix(x) or not _as_int64(ignore_label, &ignore):
        return None
    cdef cnp.ndarray a = <cnp.ndarray>x
    cdef Py_ssize_t n = a.shape[0], c = a.shape[1]
    if type(t) is not cnp.ndarray:
        return None
    cdef cnp.ndarray tv = <cnp.ndarray>t
    if (descr_of(tv) is not int32() and descr_of(tv) is not int64()) or tv.ndim != 1 \
            or tv.shape[0] != n or not _is_block(tv):
        return None
    cdef int typ = a.descr.type_num
    cdef cnp.ndarray k = cnp.PyArray_EMPTY(1, a.shape, cnp.NPY_INTP, 0)
    cdef Py_ssize_t valid = _labels(tv, k, c, ignore)
    if valid < 0:
        return None
    # the loss pass's scratch row (the blocks have their own)
    cdef cnp.ndarray e = cnp.PyArray_EMPTY(1, &a.shape[1], typ, 0)
    cdef cnp.ndarray m = cnp.PyArray_EMPTY(1, a.shape, typ, 0)
    cdef cnp.ndarray s = cnp.PyArray_EMPTY(1, a.shape, typ, 0)
    cdef cnp.ndarray loss = cnp.PyArray_EMPTY(1, a.shape, typ, 0)
    cdef Rows r
    r.x = cnp.PyArray_DATA(a)
    r.e = cnp.PyArray_DATA(e)
    r.m = cnp.PyArray_DATA(m)
    r.s = cnp.PyArray_DATA(s)
    r.loss = cnp.PyArray_DATA(loss)
    r.k = <const Py_ssize_t*>cnp.PyArray_DATA(k)
    r.g = NULL
    r.g_step = 0
    r.c = c
    r.piece = _sum_piece()
    cdef bint f32 = typ == cnp.NPY_FLOAT32
    r.finite = <char*>PyMem_Malloc(n)
    if r.finite == NULL:
        raise MemoryError()
    try:
        _blocks(&r, True, a, None).share(n)
        _log(s, s)
        # the exponentials are no longer needed: e is the scratch row
        _run(LOSS, &r, n, f32)
    finally:
        PyMem_Free(r.finite)
    stats = (k, m, s)
    if mode == 0:
        return loss, stats, None
    out, coeff = _mean(loss, valid if mode == 1 else n, r.piece)
    return out, stats, coeff


cdef bint _is_row_array(object a, cnp.ndarray x, object descr):
    # one aligned C-contiguous value of dtype descr per row of x
    return (type(a) is cnp.ndarray and descr_of(<cnp.ndarray>a) is descr
            and (<cnp.ndarray>a).ndim == 1
            and (<cnp.ndarray>a).shape[0] == x.shape[0]
            and _is_block(<cnp.ndarray>a))


cdef bint _are_stats(object stats, cnp.ndarray x):
    # what sce_forward_array returns for x: labels in [-1, classes) (-1 for
    # an ignored row; the gradient indexes the row with them), the maxima
    # and the logs of the sums
    if type(stats) is not tuple or len(<tuple>stats) != 3:
        return False
    k, m, s = <tuple>stats
    if not (_is_row_array(k, x, intp()) and _is_row_array(m, x, descr_of(x))
            and _is_row_array(s, x, descr_of(x))):
        return False
    cdef const Py_ssize_t* pk = <const Py_ssize_t*>cnp.PyArray_DATA(k)
    cdef Py_ssize_t i, c = x.shape[1]
    for i in range(x.shape[0]):
        if pk[i] < -1 or pk[i] >= c:
            return False
    return True


cdef object sce_backward_array(x, stats, g, object coeff):
    """The gradient of x from the ``stats`` of :func:`sce_forward_array` and the
    gradient ``g`` of the loss: a 0-d array scaled by ``coeff`` (the factor
    of the mean) in the dtype of x, or with ``coeff`` None, one value per
    row. None where g is not of x's dtype or of that shape, or ``stats``
    is not what :func:`sce_forward_array` returns for x.
    """
    if not _is_matrix(x) or type(g) is not cnp.ndarray:
        return None
    cdef cnp.ndarray a = <cnp.ndarray>x
    cdef cnp.ndarray gv = <cnp.ndarray>g
    cdef Py_ssize_t n = a.shape[0], c = a.shape[1], g_step = 1
    if descr_of(gv) is not descr_of(a) or not _is_block(gv):
        return None
    if coeff is None:
        if gv.ndim != 1 or gv.shape[0] != n:
            return None
    elif gv.ndim == 0:
        g_step = 0
    else:
        return None
    if not _are_stats(stats, a):
        return None
    cdef cnp.ndarray k = <cnp.ndarray>stats[0]
    cdef cnp.ndarray m = <cnp.ndarray>stats[1]
    cdef cnp.ndarray s = <cnp.ndarray>stats[2]
    cdef int typ = a.descr.type_num
    cdef bint f32 = typ == cnp.NPY_FLOAT32
    cdef float g32
    cdef double g64
    cdef void* pg = cnp.PyArray_DATA(gv)
    if g_step == 0:
        # gloss * dtype(coeff), rounded in x's dtype as NumPy does
        if f32:
            g32 = (<float*>pg)[0] * <float>(<double>coeff)
            pg = &g32
        else:
            g64 = (<double*>pg)[0] * <double>coeff
            pg = &g64
    cdef cnp.ndarray gx = cnp.PyArray_EMPTY(2, a.shape, typ, 0)
    cdef Rows r
    r.x = cnp.PyArray_DATA(a)
    r.e = cnp.PyArray_DATA(gx)
    r.m = cnp.PyArray_DATA(m)
    r.s = cnp.PyArray_DATA(s)
    r.loss = NULL
    r.k = <const Py_ssize_t*>cnp.PyArray_DATA(k)
    r.finite = NULL
    r.g = pg
    r.g_step = g_step
    r.c = c
    r.piece = 0  # no sums
    _blocks(&r, False, a, gx).share(n)
    return gx


def sce_forward(x, t, ignore_label, int mode):
    """:func:`sce_forward_array` from Python."""
    return sce_forward_array(x, t, ignore_label, mode)


def sce_backward(x, stats, g, coeff):
    """:func:`sce_backward_array` from Python."""
    return sce_backward_array(x, stats, g, coeff)
