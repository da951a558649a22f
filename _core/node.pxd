from cpython.ref cimport PyObject

from chainerlite._core.config cimport ThreadState
from chainerlite._core.facts cimport ClassFacts


cdef class VariableNode:
    cdef object _data            # retained array (None unless retained)
    cdef object _name
    cdef object _weak_variable   # weakref to a Variable that does not own it
    cdef object _dtype
    cdef tuple _shape            # cached shape tuple (built lazily from _dims)
    cdef int _ndim               # > MAX_DIMS: only _shape is set
    cdef Py_ssize_t _dims[8]
    cdef FunctionNode _creator
    cdef public int _rank        # public: Chainer's tests set it by hand
    cdef bint _requires_grad
    cdef PyObject* _variable     # borrowed; cleared when the Variable dies
    cdef dict _extra             # attributes set from Python (created lazily)
    cdef object __weakref__

    cdef _set_creator(self, FunctionNode creator)
    cdef int _set_data_info(self, data) except -1
    cdef tuple shape_tuple(self)


cdef class Variable:
    cdef object _data
    cdef readonly VariableNode _node   # readonly: Chainer's name for .node
    cdef object _grad_var
    cdef bint _requires_grad
    cdef public object _loss_scale
    cdef dict _extra             # attributes set from Python (created lazily)
    cdef object __weakref__


cdef class FunctionNode:
    cdef tuple _inputs
    cdef PyObject* _out1         # inline storage when there is one output
    cdef PyObject** _outs        # borrowed pointers; NULL entries are dead
    cdef Py_ssize_t _n_out
    cdef int _rank
    cdef public tuple _input_indexes_to_retain
    cdef public tuple _output_indexes_to_retain
    cdef public tuple _retained_output_data
    cdef object _local_hooks
    cdef dict _extra             # attributes set from Python (created lazily)
    cdef unsigned long _unchained_by  # thread of the last unchain() (0: none)
    cdef bint _released          # a retain_graph=False pass freed its arrays
    cdef object __weakref__

    cdef _link_outputs(self, tuple nodes)
    cdef bint _quick_check(self, ClassFacts facts, tuple in_data)
    cdef Variable _retained_output(self, Py_ssize_t index, data)


# What a built-in node keeps for its backward, declared once per class by
# BuiltinNode.retained(): its inputs 0-2 and its (single) output.
cdef enum:
    RETAIN_X0 = 1
    RETAIN_X1 = 2
    RETAIN_X2 = 4
    RETAIN_Y = 8


cdef class BuiltinNode(FunctionNode):
    # A compiled node of one output, applied by apply_builtin. It adds no
    # field: FunctionNode's freelist serves it (and its grad nodes)
    cdef int retained(self)
    cdef object compute(self, x0, x1, x2)
    # its one backward: the grad nodes it applies (apply_nested, or
    # apply_builtin) to the output gradients, arrays or Variables alike
    cdef tuple grads(self, tuple indexes, tuple gys)
    cdef bint quick_check(self, int n, x0, x1, x2)
    cdef inline object input_data(self, Py_ssize_t i):
        d = (<VariableNode>self._inputs[i])._data
        if d is None:
            released_input(self, i)
        return d
    cdef object retained_y(self)


cdef Variable new_variable(data, bint requires_grad)
cdef int released_input(FunctionNode f, Py_ssize_t i) except -1
cdef Variable as_variable_fast(x)
cdef Variable get_variable(VariableNode node)
cdef tuple apply_node(FunctionNode node, tuple inputs)
cdef int node_flags(FunctionNode f) except -1
cdef Variable apply_builtin(BuiltinNode node, Variable x0, Variable x1=*,
                            Variable x2=*)
cdef object apply_nested(BuiltinNode op, tuple in_data)
cdef int check_finite(FunctionNode node, tuple arrays, str phase) except -1
cdef object ensure_array(object y)
cdef bint is_array(object x)
cdef str grad_count_message(FunctionNode func, Py_ssize_t n, indexes)
cdef bint is_float_dtype(dtype)
cdef int check_grad(FunctionNode func, VariableNode x, object gx, bint raw) except -1
cdef object array_module(x)
