from chainerlite._core.config cimport ThreadState

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


cdef tuple active_entries(ThreadState state, object local_hooks)
cdef tuple global_entries(ThreadState state)
cdef tuple entries_with_callbacks(ThreadState state)
cdef int any_mask(tuple entries) except -1
