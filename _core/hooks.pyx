"""Function hook registry (thread-local) and dispatch.

The hot path asks :func:`active_entries` (or the inlined
``forward_entries``) once per op; when no hook is registered that is
one test. Each :class:`HookEntry` knows which of the four callbacks its
hook overrides, so a hook that overrides nothing is never called; the
entry itself is what the per-op check reads.
"""
from cpython.dict cimport PyDict_Size
from cpython.object cimport PyObject_GenericGetDict
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE

cdef extern from "Python.h":
    object PyObject_Vectorcall(object callable, PyObject** args, size_t nargsf,
                               PyObject* kwnames)

from chainerlite._core.config cimport ThreadState, get_state
from chainerlite._core.facts cimport (
    ClassFacts, class_facts, register_compiled_hook)

cdef extern from "Python.h":
    void PyType_Modified(object type)


cdef tuple _CALLBACKS = ('forward_preprocess', 'forward_postprocess',
                         'backward_preprocess', 'backward_postprocess')
# what marks a hook class modified when set or deleted on an instance
cdef frozenset _HOOK_ATTRS = frozenset(
    _CALLBACKS + ('forward_postprocess_out_data',))


cdef class HookRegistry(dict):
    """Ordered ``name -> hook`` mapping that keeps its dispatch entries.

    Every mutation rebuilds the tuple of :class:`HookEntry` (validating new
    hooks then, at registration, rather than on the first op) and the union
    of their masks.
    """

    def __cinit__(self, *args, **kwargs):
        self.entries = ()
        self.mask = 0
        self.hidden = {}

    cdef _changed(self):
        cdef HookEntry e
        self.version += 1
        old = {id(e.hook): e for e in self.entries}
        entries = []
        for hook in dict.values(self):
            e = self.hidden.get(id(hook))
            if e is not None and e.hook is hook:
                continue  # registered, but left out of dispatch
            e = old.get(id(hook))
            if e is None or e.hook is not hook:
                e = HookEntry(hook)
                e._recompute()
            entries.append(e)
        self.entries = tuple(entries)
        self.mask = any_mask(self.entries)

    cdef tuple _revalidate(self):
        # A hook or its class changed since its entry was validated: the
        # entries again if some forward callback is overridden (as
        # forward_entries asks).
        self.mask = any_mask(self.entries)
        return self.entries if self.mask & FORWARD else None

    cdef _commit(self, dict before):
        # After an insertion: a value that is not a function hook is taken
        # out again (the registry gets back its previous content) before the
        # error propagates, so later registrations still work.
        try:
            self._changed()
        except BaseException:
            dict.clear(self)
            dict.update(self, before)
            self._changed()
            raise

    def hide(self, hooks):
        """Leaves the registered ``hooks`` out of dispatch (they stay
        registered, in their place) until :meth:`unhide` is given the
        returned token; calls nest."""
        cdef HookEntry e
        previous = self.hidden
        hidden = dict(previous)
        for e in self.entries:
            if any(e.hook is hook for hook in hooks):
                hidden[id(e.hook)] = e  # (the entry holds the hook alive)
        self.hidden = hidden
        self._changed()
        return previous

    def unhide(self, token):
        """Dispatches again to the hooks that the :meth:`hide` call
        which returned ``token`` left out."""
        previous = self.hidden
        self.hidden = token
        # their entries, validated before, are taken up again
        self.entries = self.entries + tuple(
            [e for key, e in previous.items() if key not in token])
        self._changed()

    def __setitem__(self, key, value):
        before = dict(self)
        dict.__setitem__(self, key, value)
        self._commit(before)

    def __delitem__(self, key):
        dict.__delitem__(self, key)
        self._changed()

    def pop(self, *args):
        try:
            return dict.pop(self, *args)
        finally:
            self._changed()

    def popitem(self):
        try:
            return dict.popitem(self)
        finally:
            self._changed()

    def clear(self):
        dict.clear(self)
        self._changed()

    def update(self, *args, **kwargs):
        before = dict(self)
        dict.update(self, *args, **kwargs)
        self._commit(before)

    def setdefault(self, key, default=None):
        before = dict(self)
        value = dict.setdefault(self, key, default)
        self._commit(before)
        return value


cdef object _instance_dict(obj):
    try:
        return PyObject_GenericGetDict(obj, NULL)
    except AttributeError:
        return None


def callback_set(hook, name):
    """Marks the class of ``hook`` modified when ``name`` is a callback.

    FunctionHook's __setattr__ and __delattr__ call it after the change, so
    a callback set, replaced or removed on an instance (mock.patch.object)
    takes effect on the next op: entries are valid while their class's
    version tag holds (facts' rule), and this gives the class a new one.
    The instance dict's size alone would miss a callback gained while
    another attribute is lost. (CPython 3.12+ gives a class at most 1000
    tags; past that its hooks are re-examined on every op, still right.)
    """
    if name in _HOOK_ATTRS:
        PyType_Modified(type(hook))


cdef class CompiledHook:
    """Base of hooks whose callbacks are compiled (TimerHook's recorder).

    A subclass implements the C method ``call``; its class takes the
    functions below as its callbacks. The dispatcher then calls ``call``
    directly; a Python subclass that overrides a callback is called as
    usual for that callback.
    """

    cdef int call(self, int index, function, in_data, out) except -1:
        return 0


def forward_preprocess(CompiledHook self not None, function, in_data):
    self.call(0, function, in_data, None)


def forward_postprocess(CompiledHook self not None, function, in_data):
    self.call(1, function, in_data, None)


def backward_preprocess(CompiledHook self not None, function, in_data, out_grad):
    self.call(2, function, in_data, out_grad)


def backward_postprocess(CompiledHook self not None, function, in_data, out_grad):
    self.call(3, function, in_data, out_grad)


cdef tuple _COMPILED = (forward_preprocess, forward_postprocess,
                        backward_preprocess, backward_postprocess)
register_compiled_hook(CompiledHook, _COMPILED)


cdef class HookEntry:

    def __cinit__(self, hook):
        self.hook = hook
        self.type_ = None
        self.mask = -1

    cdef int current_mask(self) except -1:
        if still_valid(self):
            return self.mask
        return self._recompute()

    cdef int _recompute(self) except -1:
        # the class's facts, then the callbacks set on the instance: those
        # are looked up on it when called (funcs[i] NULL)
        cdef int i, bit
        hook = self.hook
        cls = type(hook)
        cdef ClassFacts facts = class_facts(cls)
        inst = _instance_dict(hook)
        cdef int mask = facts.hook_mask
        cdef int direct = facts.hook_direct
        owned = []
        for i in range(4):
            bit = 1 << i
            name = _CALLBACKS[i]
            if inst is not None and name in inst:
                func = inst[name]
                owned.append(None)
                mask |= bit
                direct &= ~bit
            else:
                func = getattr(cls, name, None)
                owned.append(func)
            if not callable(func):
                raise TypeError('%s.%s is not a function hook: it has no '
                                'callable %s' % (cls.__module__,
                                                 cls.__qualname__, name))
        if inst is not None and 'forward_postprocess_out_data' in inst:
            mask &= ~FWD_POST_OUT
            if inst['forward_postprocess_out_data']:
                mask |= FWD_POST_OUT
        if not mask & FWD_POST:
            mask &= ~FWD_POST_OUT
        self.owned = tuple(owned)
        for i in range(4):
            func = self.owned[i]
            self.funcs[i] = NULL if func is None else <PyObject*>func
        self.direct = direct
        self.mask = mask
        self.type_tag = facts.tag
        self.type_ = cls
        self.inst_dict = inst
        self.dict_size = -1 if inst is None else PyDict_Size(inst)
        return mask


cdef int dispatch_all(tuple entries, int index, function, in_data,
                      out) except -1:
    """Calls callback ``index`` (0..3, in _CALLBACKS order) of each entry.

    Only entries that override it are called. ``out``: the output
    gradients of a backward callback; for forward_postprocess the output
    arrays, passed to hooks that declared ``forward_postprocess_out_data``.
    Forward entries were validated when the op started; a backward
    callback asks each entry again, as the pass outlives many ops. A
    compiled hook's own callback is a C call; one defined on the class is
    called as a plain function with the hook prepended, through its
    vectorcall entry (no bound method, no argument tuple); one set on the
    instance is looked up on it. The entries are read borrowed: the tuple
    holds them while it runs, and a callback that registers or removes a
    hook replaces the registry's tuple, not this one.
    """
    cdef Py_ssize_t i
    cdef int bit = 1 << index, mask
    cdef size_t nargs
    cdef PyObject* ep
    cdef PyObject* func
    cdef PyObject* res
    cdef vectorcallfunc call
    cdef PyObject* args[4]
    args[1] = <PyObject*>function
    args[2] = <PyObject*>in_data
    args[3] = <PyObject*>out
    for i in range(PyTuple_GET_SIZE(entries)):
        ep = PyTuple_GET_ITEM(entries, i)
        if index < 2 or still_valid(<HookEntry>ep):
            mask = (<HookEntry>ep).mask
        else:
            mask = (<HookEntry>ep)._recompute()
        if not mask & bit:
            continue
        if (<HookEntry>ep).direct & bit:
            (<CompiledHook>(<HookEntry>ep).hook).call(
                index, function, in_data, out)
            continue
        nargs = 4 if index >= 2 or (index == 1 and mask & FWD_POST_OUT) else 3
        func = (<HookEntry>ep).funcs[index]
        if func == NULL:
            _call_instance(<HookEntry>ep, index, nargs, function, in_data, out)
            continue
        args[0] = <PyObject*>(<HookEntry>ep).hook
        call = vectorcall_of(func)
        if call != NULL:
            res = call(func, args, nargs, NULL)
            if res == NULL:
                return -1
            _decref(res)
        else:
            PyObject_Vectorcall(<object>func, args, nargs, NULL)
    return 0


cdef int _call_instance(HookEntry e, int index, size_t nargs, function,
                        in_data, out) except -1:
    # a callback set on the hook instance, looked up on it at each call
    callback = getattr(e.hook, _CALLBACKS[index])
    if nargs == 4:
        callback(function, in_data, out)
    else:
        callback(function, in_data)
    return 0


cdef HookRegistry _registry(ThreadState state):
    if state.hooks is None:
        state.hooks = HookRegistry()
    return <HookRegistry>state.hooks


cdef tuple global_entries(ThreadState state):
    return (<HookRegistry>state.hooks).entries


cdef tuple active_entries(ThreadState state, object local_hooks):
    """Entries of the hooks that apply to a node: global first, then local."""
    cdef bint has_global = state.hooks is not None and len(state.hooks) > 0
    if local_hooks is None or not local_hooks:
        if has_global:
            return global_entries(state)
        return ()
    if not has_global:
        return tuple([HookEntry(h) for h in local_hooks.values()])
    merged = dict(state.hooks)
    merged.update(local_hooks)
    return tuple([HookEntry(h) for h in merged.values()])


cdef int any_mask(tuple entries) except -1:
    cdef int mask = 0
    cdef Py_ssize_t i
    for i in range(PyTuple_GET_SIZE(entries)):
        mask |= (<HookEntry>PyTuple_GET_ITEM(entries, i)).current_mask()
    return mask


def get_function_hooks():
    """Returns the ordered mapping of global function hooks of this thread.

    Hooks registered with ``with hook:`` are stored here under ``hook.name``.
    The mapping is thread-local: hooks registered in one thread never fire in
    another.
    """
    return _registry(get_state())
