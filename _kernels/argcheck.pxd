# Cheap checks of the arrays that the compiled kernels take: a few C
# comparisons each, no Python call, so that a kernel can check every
# argument it reads or writes at no measurable cost.
#
# A span is the range of bytes [lo, hi) that an array's elements lie in
# (lo == hi for an array without elements); two arrays whose spans do not
# intersect share no memory.
cimport numpy as cnp


cdef struct Span:
    const char* lo
    const char* hi


cdef inline Span span(const void* data, int ndim, const Py_ssize_t* shape,
                      const Py_ssize_t* strides,
                      Py_ssize_t itemsize) noexcept nogil:
    cdef Span s
    cdef int k
    cdef Py_ssize_t step
    s.lo = <const char*>data
    s.hi = s.lo + itemsize
    for k in range(ndim):
        if shape[k] == 0:
            s.hi = s.lo
            return s
        step = (shape[k] - 1) * strides[k]
        if step < 0:
            s.lo += step
        else:
            s.hi += step
    return s


cdef inline Span array_span(cnp.ndarray a) noexcept:
    return span(cnp.PyArray_DATA(a), cnp.PyArray_NDIM(a),
                <const Py_ssize_t*>cnp.PyArray_DIMS(a),
                <const Py_ssize_t*>cnp.PyArray_STRIDES(a),
                cnp.PyArray_ITEMSIZE(a))


cdef inline bint overlap(Span a, Span b) noexcept nogil:
    return a.lo < a.hi and b.lo < b.hi and a.lo < b.hi and b.lo < a.hi


cdef inline bint aligned(const void* data, int ndim,
                         const Py_ssize_t* strides,
                         Py_ssize_t itemsize) noexcept nogil:
    # the first element and every step between elements are multiples of
    # the itemsize (which the element types of the kernels are aligned to)
    cdef int k
    if <size_t>data % <size_t>itemsize:
        return False
    for k in range(ndim):
        if strides[k] % itemsize:
            return False
    return True
