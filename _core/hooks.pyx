"""Function hook registry (thread-local) and dispatch tables.

The hot path asks :func:`active_entries` once per op; when no hook is
registered it returns an empty tuple after one length check. Each entry
caches which of the four callbacks its hook overrides, so a hook that
overrides nothing is never called.
"""
from cpython.dict cimport PyDict_Size
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.ref cimport Py_XDECREF, Py_XINCREF
from cpython.object cimport PyObject_GenericGetDict
from cpython.object cimport Py_TYPE, PyTypeObject
from cpython.ref cimport PyObject
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE

from chainerlite._core.config cimport ThreadState, get_state


cdef tuple _CALLBACKS = ('forward_preprocess', 'forward_postprocess',
                         'backward_preprocess', 'backward_postprocess')
cdef tuple _base_callbacks = None
# Version tag of a hook class -> its mask, for hooks whose instances override
# no callback: a new hook of a known class skips the signature inspection.
# A tag is never reused for another class or a modified one, and the cache
# holds no reference to the class (nor to its functions, which may refer to
# it), so classes made at run time are freed. Emptied when it grows large.
cdef dict _class_masks = {}
cdef Py_ssize_t _CLASS_MASKS_SIZE = 4096


def _set_base_hook_class(cls):
    """Registers the FunctionHook base class whose callbacks do nothing."""
    global _base_callbacks
    _base_callbacks = tuple([cls.__dict__[name] for name in _CALLBACKS])


cdef class HookRegistry(dict):
    """Ordered ``name -> hook`` mapping that keeps its dispatch entries.

    Every mutation rebuilds the tuple of :class:`HookEntry` (validating new
    hooks then, at registration, rather than on the first op) and the C
    array of checks that :func:`entries_with_callbacks` runs per op.
    """

    def __cinit__(self, *args, **kwargs):
        self.entries = ()
        self.checks = NULL
        self.n_checks = 0
        self.mask = 0

    def __dealloc__(self):
        self._release_checks()

    cdef void _release_checks(self):
        cdef Py_ssize_t i
        for i in range(self.n_checks):
            Py_XDECREF(self.checks[i].hook)
            Py_XDECREF(self.checks[i].type_)
            Py_XDECREF(self.checks[i].inst_dict)
        PyMem_Free(self.checks)
        self.checks = NULL
        self.n_checks = 0

    cdef _changed(self):
        cdef HookEntry e
        self.version += 1
        old = {id(e.hook): e for e in self.entries}
        entries = []
        for hook in dict.values(self):
            e = old.get(id(hook))
            if e is None or e.hook is not hook:
                e = HookEntry(hook)
                e._recompute()
            entries.append(e)
        self.entries = tuple(entries)
        self._sync()

    cdef int _sync(self) except -1:
        # Snapshots every entry (revalidating those that changed) into the
        # checks array.
        cdef Py_ssize_t i, n = len(self.entries)
        cdef HookEntry e
        cdef HookCheck* checks = <HookCheck*>PyMem_Malloc(
            max(n, 1) * sizeof(HookCheck))
        if checks == NULL:
            raise MemoryError()
        cdef int mask = 0
        for i in range(n):
            e = <HookEntry>self.entries[i]
            mask |= e.current_mask()
            checks[i].hook = <PyObject*>e.hook
            checks[i].type_ = <PyObject*>e.type_
            checks[i].tag = e.type_tag
            checks[i].inst_dict = (NULL if e.inst_dict is None
                                   else <PyObject*>e.inst_dict)
            checks[i].dict_size = e.dict_size
            Py_XINCREF(checks[i].hook)
            Py_XINCREF(checks[i].type_)
            Py_XINCREF(checks[i].inst_dict)
        self._release_checks()
        self.checks = checks
        self.n_checks = n
        self.mask = mask
        return 0

    cdef tuple _revalidate(self):
        # A hook or its class changed since the last snapshot.
        self._sync()
        return self.entries if self.mask else None

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


cdef int _compute_mask(hook) except -1:
    cdef int mask = 0, bit = 1
    cdef Py_ssize_t i
    try:
        inst = PyObject_GenericGetDict(hook, NULL)
    except AttributeError:
        inst = {}
    cls = type(hook)
    for i in range(4):
        name = _CALLBACKS[i]
        # looked up on the class or the instance dict: a hook's own
        # __getattribute__ is not run for callbacks it never receives
        if not callable(inst[name] if name in inst
                        else getattr(cls, name, None)):
            raise TypeError('%s.%s is not a function hook: it has no callable '
                            '%s' % (cls.__module__, cls.__qualname__, name))
        if name in inst or _base_callbacks is None or (
                getattr(cls, name, None) is not _base_callbacks[i]):
            mask |= bit
        bit <<= 1
    if mask & FWD_POST and _wants_out_data(
            getattr(hook, 'forward_postprocess')):
        mask |= FWD_POST_OUT
    return mask


cdef bint _wants_out_data(callback) except -1:
    # Decided once when the hook is (re)validated, never per call: a
    # forward_postprocess with a third required positional parameter (or one
    # named out_data) receives the output arrays too; an optional third
    # parameter keeps Chainer's two-argument call.
    import inspect
    try:
        params = inspect.signature(callback).parameters.values()
    except (TypeError, ValueError):
        return False
    required = 0
    for p in params:
        if p.name == 'out_data':
            return True
        if p.kind == p.VAR_POSITIONAL:
            return False
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and (
                p.default is p.empty):
            required += 1
    return required >= 3


cdef class HookEntry:

    def __cinit__(self, hook):
        self.hook = hook
        self.type_ = None
        self.mask = -1

    cdef int current_mask(self) except -1:
        if _still_valid(self):
            return self.mask
        return self._recompute()

    cdef int _recompute(self) except -1:
        hook = self.hook
        cls = type(hook)
        inst = _instance_dict(hook)
        on_instance = inst is not None and any(
            [name in inst for name in _CALLBACKS])
        cdef unsigned int tag = (<_TypeWithTag*><PyObject*>cls).tp_version_tag
        cached = None if on_instance or tag == 0 else _class_masks.get(tag)
        if cached is not None:
            # another instance of this class was validated already
            self.mask = cached
        else:
            self.mask = _compute_mask(hook)
        self.funcs = [None if inst is not None and name in inst
                      else getattr(cls, name) for name in _CALLBACKS]
        if cached is None:
            # The lookups above assign the class a fresh version tag if
            # needed.
            tag = (<_TypeWithTag*><PyObject*>cls).tp_version_tag
            if not on_instance and tag != 0:
                if len(_class_masks) >= _CLASS_MASKS_SIZE:
                    _class_masks.clear()
                _class_masks[tag] = self.mask
        self.type_tag = tag
        self.type_ = cls
        self.inst_dict = inst
        self.dict_size = -1 if inst is None else PyDict_Size(inst)
        return self.mask

    # Calls callback ``index`` (0..3, in _CALLBACKS order). A callback
    # defined on the class is called as a plain function with the hook
    # prepended (no bound-method lookup per call); one set on the instance
    # is looked up on it.
    cdef object call2(self, int index, a, b):
        func = self.funcs[index]
        if func is None:
            return getattr(self.hook, _CALLBACKS[index])(a, b)
        return func(self.hook, a, b)

    cdef object call3(self, int index, a, b, c):
        func = self.funcs[index]
        if func is None:
            return getattr(self.hook, _CALLBACKS[index])(a, b, c)
        return func(self.hook, a, b, c)


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


cdef inline bint _still_valid(HookEntry e):
    # The cached mask holds while the class is unmodified (same type, same
    # version tag) and the instance dict has the same size: patching a
    # callback on the instance (mock.patch.object) adds or removes a key.
    # Checked on every op, so it uses borrowed pointers and no reference
    # counting.
    cdef PyTypeObject* cls = Py_TYPE(e.hook)
    cdef unsigned int tag = (<_TypeWithTag*>cls).tp_version_tag
    return (e.mask >= 0 and tag != 0 and tag == e.type_tag
            and <PyObject*>cls == <PyObject*>e.type_
            and (e.inst_dict is None
                 or PyDict_Size(e.inst_dict) == e.dict_size))


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
