# The operators of Variable (node.pyx cimports them), the typed scalar
# constant of raw-array code, and what the backward of a built-in node uses
# to apply its grad nodes to Variables or arrays alike (see apply_grad).
from chainerlite._core.config cimport get_state
from chainerlite._core.hooks cimport forward_entries
from chainerlite._core.node cimport BuiltinNode, Variable

cdef object typed_const(value, x)

cdef object apply_grad(BuiltinNode op, a, b=*)
cdef object apply_grad1(BuiltinNode op, tuple gys)
cdef object apply_function(f, x, arg)
cdef tuple retained_inputs(BuiltinNode node, gy)
cdef object grad_add(a, b)
cdef object grad_mul(a, b)
cdef object grad_mul_const(a, value)


cdef inline bint unwatched(a) except -1:
    """Whether a grad node applied to ``a`` runs compute-only with no one
    to see it: ``a`` is an array and this thread has no forward hook. A
    backward may then run the grad node's computation without making the
    node (what apply_nested would do with it, minus the allocation)."""
    return not isinstance(a, Variable) and (
        forward_entries(get_state()) is None)

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
