cimport cython
from cpython.object cimport PyTypeObject
from cpython.ref cimport PyObject
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE

from chainerlite._core.config cimport ThreadState
from chainerlite._core.facts cimport (
    BWD_POST, BWD_PRE, FORWARD, FWD_POST, FWD_POST_OUT, FWD_PRE, _TypeWithTag)

cdef extern from "Python.h":
    PyTypeObject* _type_of "Py_TYPE"(PyObject* o)
    Py_ssize_t _dict_size "PyDict_GET_SIZE"(PyObject* d)
    void _decref "Py_DECREF"(PyObject* o)
    ctypedef PyObject* (*vectorcallfunc)(PyObject* callable, PyObject** args,
                                         size_t nargsf, PyObject* kwnames)

cdef extern from *:
    """
    /* the vectorcall entry of a callable, or NULL: CPython's own test,
       inline (3.11 exports PyVectorcall_Function as a call) */
    static inline vectorcallfunc __pyx_cl_vectorcall_of(PyObject *f) {
        PyTypeObject *tp = Py_TYPE(f);
        if (!PyType_HasFeature(tp, Py_TPFLAGS_HAVE_VECTORCALL))
            return NULL;
        return *(vectorcallfunc *)(((char *)f) + tp->tp_vectorcall_offset);
    }
    """
    vectorcallfunc vectorcall_of "__pyx_cl_vectorcall_of"(PyObject* f)


cdef class CompiledHook:
    # A hook whose callbacks are compiled: a class that takes this module's
    # forward_preprocess ... backward_postprocess functions as callbacks is
    # called here, through ``call``, with no Python call. ``index`` is the
    # callback's (0..3, in FWD_PRE .. BWD_POST order); ``out`` is the output
    # gradients of a backward callback, else None.
    cdef int call(self, int index, function, in_data, out) except -1


@cython.final
cdef class HookEntry:
    # One registered hook and which callbacks it overrides: its class's
    # facts (facts.ClassFacts) with the callbacks set on the instance. It
    # holds while the class's version tag is the one of those facts (see
    # still_valid).
    cdef readonly object hook
    cdef readonly int mask
    cdef object inst_dict        # the hook's instance __dict__ (or None)
    cdef Py_ssize_t dict_size
    cdef unsigned int type_tag
    cdef object type_
    # per callback: the class's function, or NULL when the instance
    # overrides it; borrowed from ``owned``, the tuple that holds them
    cdef PyObject* funcs[4]
    cdef tuple owned
    # bit (1 << index) set: callback ``index`` is a CompiledHook's own
    cdef int direct

    cdef int current_mask(self) except -1
    cdef int _recompute(self) except -1


cdef class HookRegistry(dict):
    cdef readonly unsigned long version
    cdef readonly tuple entries
    cdef int mask                # union of the entries' masks
    cdef dict hidden             # id -> entry of the hooks left out
    cdef _changed(self)
    cdef _commit(self, dict before)
    cdef tuple _revalidate(self)


cdef tuple active_entries(ThreadState state, object local_hooks)
cdef tuple global_entries(ThreadState state)
cdef int any_mask(tuple entries) except -1
cdef int dispatch_all(tuple entries, int index, function, in_data,
                      out) except -1


cdef inline bint still_valid(HookEntry e):
    """Whether the mask of ``e`` still describes its hook.

    It does while the class is unmodified: same type, same version tag
    (facts' rule). Setting or deleting a callback on a FunctionHook
    instance (setattr, mock.patch.object) marks its class modified
    (hooks.callback_set), which covers instance patches whatever else
    changes in the instance dict; a callback written straight into the
    instance ``__dict__`` bypasses that, and the dict's size catches one
    that adds a key. Asked on every op, so it reads borrowed pointers and
    counts no references.
    """
    cdef PyTypeObject* t = _type_of(<PyObject*>e.hook)
    return (e.mask >= 0 and e.type_tag != 0
            and <PyObject*>t == <PyObject*>e.type_
            and (<_TypeWithTag*>t).tp_version_tag == e.type_tag
            and (e.inst_dict is None
                 or _dict_size(<PyObject*>e.inst_dict) == e.dict_size))


cdef inline tuple forward_entries(ThreadState state):
    """Global entries of this thread if some forward callback is overridden,
    else None.

    The per-op check of the built-in nodes (and of the grad nodes a backward
    applies, which only forward callbacks see), inlined where it is used:
    with hooks registered that override no forward callback it is a few
    loads and compares per hook, and no call.
    """
    if state.hooks is None:
        return None
    cdef HookRegistry reg = <HookRegistry>state.hooks
    cdef tuple entries = reg.entries
    cdef Py_ssize_t i
    for i in range(PyTuple_GET_SIZE(entries)):
        if not still_valid(<HookEntry>PyTuple_GET_ITEM(entries, i)):
            return reg._revalidate()
    return entries if reg.mask & FORWARD else None


cdef inline int dispatch(tuple entries, int index, function, in_data,
                         out) except -1:
    """Calls callback ``index`` (0..3) of the hooks of ``entries``.

    See dispatch_all. Inlined where ops call it, for the common case of
    one hook: a compiled hook's own callback is a C call; a function of
    its class is called through its vectorcall entry with the hook
    prepended, the arguments on the stack. Anything else goes to
    dispatch_all.
    """
    cdef PyObject* ep
    cdef PyObject* func
    cdef PyObject* res
    cdef PyObject* args[4]
    cdef vectorcallfunc call
    cdef int mask
    if PyTuple_GET_SIZE(entries) != 1:
        return dispatch_all(entries, index, function, in_data, out)
    ep = PyTuple_GET_ITEM(entries, 0)
    if index >= 2 and not still_valid(<HookEntry>ep):
        return dispatch_all(entries, index, function, in_data, out)
    mask = (<HookEntry>ep).mask
    if not mask & (1 << index):
        return 0
    if (<HookEntry>ep).direct & (1 << index):
        return (<CompiledHook>(<HookEntry>ep).hook).call(
            index, function, in_data, out)
    func = (<HookEntry>ep).funcs[index]
    if func == NULL:
        return dispatch_all(entries, index, function, in_data, out)
    call = vectorcall_of(func)
    if call == NULL:
        return dispatch_all(entries, index, function, in_data, out)
    args[0] = <PyObject*>(<HookEntry>ep).hook
    args[1] = <PyObject*>function
    args[2] = <PyObject*>in_data
    args[3] = <PyObject*>out
    res = call(func, args, 4 if index >= 2 or (
        index == 1 and mask & FWD_POST_OUT) else 3, NULL)
    if res == NULL:
        return -1
    _decref(res)
    return 0
