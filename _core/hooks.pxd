from cpython.object cimport PyTypeObject
from cpython.ref cimport PyObject

from chainerlite._core.config cimport ThreadState

cdef extern from "Python.h":
    ctypedef struct _TypeWithTag "PyTypeObject":
        unsigned int tp_version_tag
    PyTypeObject* _type_of "Py_TYPE"(PyObject* o)
    Py_ssize_t _dict_size "PyDict_GET_SIZE"(PyObject* d)

cdef enum:
    FWD_PRE = 1
    FWD_POST = 2
    BWD_PRE = 4
    BWD_POST = 8
    FWD_POST_OUT = 16   # forward_postprocess takes (function, in_data, out_data)


cdef class HookEntry:
    # One registered hook and which callbacks it overrides. The mask is
    # recomputed when the hook's instance dict or its class changes.
    cdef readonly object hook
    cdef readonly int mask
    cdef object inst_dict        # the hook's instance __dict__ (or None)
    cdef Py_ssize_t dict_size
    cdef unsigned int type_tag
    cdef object type_
    # per callback: the class's function, or None when the instance
    # overrides it
    cdef list funcs

    cdef int current_mask(self) except -1
    cdef int _recompute(self) except -1
    cdef object call2(self, int index, a, b)
    cdef object call3(self, int index, a, b, c)


ctypedef struct HookCheck:
    # What a registered hook looked like when its entry was validated (the
    # same test as HookEntry's, on plain C fields; references are owned).
    PyObject* hook
    PyObject* type_
    unsigned int tag
    PyObject* inst_dict          # NULL when the hook has no instance dict
    Py_ssize_t dict_size


cdef class HookRegistry(dict):
    cdef readonly unsigned long version
    cdef readonly tuple entries
    cdef HookCheck* checks       # one per entry
    cdef Py_ssize_t n_checks
    cdef int mask                # union of the entries' masks
    cdef void _release_checks(self)
    cdef _changed(self)
    cdef _commit(self, dict before)
    cdef int _sync(self) except -1
    cdef tuple _revalidate(self)


cdef tuple active_entries(ThreadState state, object local_hooks)
cdef tuple global_entries(ThreadState state)
cdef int any_mask(tuple entries) except -1


cdef inline tuple entries_with_callbacks(ThreadState state):
    """Global entries of this thread if some callback is overridden, else None.

    The per-op check of the built-in nodes, inlined where it is used: with
    hooks registered that override nothing it is a few loads and compares
    per hook, and no call.
    """
    if state.hooks is None:
        return None
    cdef HookRegistry reg = <HookRegistry>state.hooks
    cdef Py_ssize_t i
    cdef HookCheck* c
    cdef PyTypeObject* t
    for i in range(reg.n_checks):
        c = &reg.checks[i]
        t = _type_of(c.hook)
        if (<PyObject*>t != c.type_ or c.tag == 0
                or (<_TypeWithTag*>t).tp_version_tag != c.tag
                or (c.inst_dict != NULL
                    and _dict_size(c.inst_dict) != c.dict_size)):
            return reg._revalidate()
    return reg.entries if reg.mask else None
