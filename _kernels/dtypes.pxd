# The dtypes the kernels compute in, named once: NumPy's own dtype objects,
# which a kernel compares by identity with an array's (through descr_of,
# below), so that a byte-swapped float32 (or one carrying metadata) is
# another dtype and is declined. Each call returns the same object (NumPy
# keeps one of each).
cimport numpy as cnp


cdef inline object float32():
    return cnp.PyArray_DescrFromType(cnp.NPY_FLOAT32)


cdef inline object float64():
    return cnp.PyArray_DescrFromType(cnp.NPY_FLOAT64)


cdef inline object int32():
    return cnp.PyArray_DescrFromType(cnp.NPY_INT32)


cdef inline object int64():
    return cnp.PyArray_DescrFromType(cnp.NPY_INT64)


cdef inline object intp():
    return cnp.PyArray_DescrFromType(cnp.NPY_INTP)


cdef inline object descr_of(cnp.ndarray a):
    # a's dtype, as NumPy's own object where it is only an equal copy of it
    # (native byte order, no metadata): on NumPy 1 an unpickled array (a
    # parameter, an optimizer's state, a batch from another process) carries
    # such a copy, which the identity checks would decline
    cdef object d = a.descr
    cdef object own = cnp.PyArray_DescrFromType((<cnp.dtype>d).type_num)
    if d is own or d.metadata is not None or d != own:
        return d
    return own
