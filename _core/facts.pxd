cimport cython
from cpython.ref cimport PyObject

cdef extern from "Python.h":
    ctypedef struct _TypeWithTag "PyTypeObject":
        unsigned int tp_version_tag


# ClassFacts.flags
cdef enum:
    # a BuiltinNode whose backward is BuiltinNode's: a raw pass runs its
    # grads on arrays
    COMPILED_GRADS = 1
    ACCUMULATES = 2        # it overrides backward_accumulate
    OWN_TYPE_CHECK = 4     # it overrides check_type_forward
    # a Python class that defines __getattr__, __getattribute__,
    # __setattr__ or __delattr__ (below its compiled base)
    OWN_ATTR_HOOKS = 8
    PLAIN_IMPL_NAME = 16   # its _impl_name is FunctionNode's (its name)
    # a BuiltinNode class whose apply or forward is not the compiled one
    # (replaced on it or a base): apply_builtin calls its apply()
    CALL_REPLACED = 32
    # a node class defined outside chainerlite: as in Chainer 7.8.1, its
    # backward must give Variables (or None), never arrays
    USER_NODE = 64


# Hook callbacks, one bit each (ClassFacts.hook_mask, HookEntry.mask)
cdef enum:
    FWD_PRE = 1
    FWD_POST = 2
    BWD_PRE = 4
    BWD_POST = 8
    # set when the hook's forward_postprocess_out_data is True: its
    # forward_postprocess takes (function, in_data, out_data)
    FWD_POST_OUT = 16
    FORWARD = 3  # FWD_PRE | FWD_POST


cdef class Contract:
    # a declared check_type_forward (see facts.pyx)
    cdef readonly tuple names
    cdef readonly int count
    cdef readonly int optional
    cdef readonly str kinds
    cdef readonly tuple same
    cdef readonly tuple ndims
    cdef readonly tuple dims
    cdef readonly bint broadcast
    cdef readonly str axes
    cdef readonly str size
    cdef readonly str to_shape
    cdef char _kinds[3]
    cdef int _ndims[3]
    cdef int _n_same
    cdef int _same[3][2]
    cdef int _n_dims
    cdef int _dims[3][4]
    cdef bint _typed
    cdef bint accepts(self, node, Py_ssize_t n, x0, x1, x2)
    cdef _expect(self, type_check, in_types, int lo, int hi)


@cython.final
cdef class ClassFacts:
    # What the core needs to know about a class, valid while the class is
    # unmodified: ``tag`` is its tp_version_tag when they were computed.
    cdef readonly unsigned int tag
    cdef readonly int flags
    # the dtype kinds of a node class's declared check (type_check's
    # declare_kinds), one per input, or None
    cdef readonly bytes kinds
    # the node class's check_type_forward where it is a declared Contract
    cdef readonly Contract contract
    # hook callbacks the class overrides (FWD_PRE..BWD_POST, FWD_POST_OUT
    # from its forward_postprocess_out_data) and, of those, the ones that
    # are a CompiledHook's own (called in C)
    cdef readonly int hook_mask
    cdef readonly int hook_direct


cdef inline unsigned int type_tag(cls):
    return (<_TypeWithTag*><PyObject*>cls).tp_version_tag


cdef ClassFacts class_facts(type cls)
cdef bint kinds_match(bytes kinds, Py_ssize_t n, x0, x1, x2)
cdef int register_nodes(type function_node, type builtin_node) except -1
cdef int register_compiled_hook(type compiled_hook, tuple callbacks) except -1


# whether a Python class defines an attribute hook below its compiled base
cdef bint own_attr_hooks(type cls)
