# The dtypes the kernels compute in, named once: NumPy's own dtype objects,
# which a kernel compares by identity with an array's, so that a
# byte-swapped float32 (or one carrying metadata) is another dtype and is
# declined. Each call returns the same object (NumPy keeps one of each).
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
