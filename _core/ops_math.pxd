# The operators of Variable (node.pyx cimports them), and the typed scalar
# constant of raw-array code.

cdef object typed_const(value, x)

cdef object add(lhs, rhs)
cdef object sub(lhs, rhs)
cdef object rsub(lhs, rhs)
cdef object mul(lhs, rhs)
cdef object div(lhs, rhs)
cdef object rdiv(lhs, rhs)
cdef object pow_(lhs, rhs)
cdef object rpow(lhs, rhs)
cdef object neg(x)
cdef object abs_(x)
