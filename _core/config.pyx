"""Thread-local configuration (``chainerlite.config``) and the per-thread state.

Each thread owns a :class:`ThreadState` stored in the interpreter's per-thread
dictionary; the two flags read on every op (``enable_backprop`` and
``type_check``) are mirrored there as C integers.
"""
import sys

from cpython.dict cimport PyDict_GetItem, PyDict_SetItem
from cpython.pystate cimport PyThreadState, PyThreadState_Get, PyThreadState_GetDict
from cpython.ref cimport PyObject

cdef extern from "Python.h":
    unsigned long long PyThreadState_GetID(PyThreadState* tstate)

cdef object _STATE_KEY = '__chainerlite_thread_state__'
cdef int _global_backprop = 1
cdef int _global_type_check = 1
cdef int _global_debug = 0
cdef int _global_retain_graph = 1


cdef class ThreadState:
    """Runtime state owned by one thread; created on first use."""

    def __cinit__(self):
        self.config = {}
        self.enable_backprop = -1
        self.type_check = -1
        self.debug = -1
        self.retain_graph = -1
        self.hooks = None


# The state of the thread that asked last, known by its thread state and
# that state's id, which the interpreter never gives to another thread (a
# new thread may get the address of a finished one's). Held, so that it
# stays valid whatever happens to the thread's dictionary.
cdef PyThreadState* _last_tstate = NULL
cdef unsigned long long _last_id = 0
cdef ThreadState _last_state = None

# Called with no arguments in a thread as its state is made, that is as the
# thread first runs something of chainerlite (set by chainerlite's import:
# the block cache in that thread's context too, see _array_memory).
cdef object _on_new_thread = None


def set_on_new_thread(callback):
    """Sets the callable (or None) that each thread calls, with no
    arguments, as its :class:`ThreadState` is made (its first use of
    chainerlite); returns the one it replaces."""
    global _on_new_thread
    previous = _on_new_thread
    _on_new_thread = callback
    return previous


cdef ThreadState get_state():
    global _last_tstate, _last_id, _last_state
    cdef PyThreadState* ts = PyThreadState_Get()
    cdef unsigned long long tid = PyThreadState_GetID(ts)
    if ts == _last_tstate and tid == _last_id:
        return _last_state
    cdef PyObject* d = PyThreadState_GetDict()
    cdef PyObject* s = PyDict_GetItem(<object>d, _STATE_KEY)
    if s != NULL:
        state = <ThreadState>s
    else:
        state = ThreadState()
        PyDict_SetItem(<object>d, _STATE_KEY, state)
        if _on_new_thread is not None:
            _on_new_thread()
    _last_tstate = ts
    _last_id = tid
    _last_state = state
    return state


cdef bint backprop_enabled(ThreadState state):
    if state.enable_backprop >= 0:
        return state.enable_backprop
    return _global_backprop


cdef bint type_check_enabled(ThreadState state):
    if state.type_check >= 0:
        return state.type_check
    return _global_type_check


cdef bint debug_enabled(ThreadState state):
    if state.debug >= 0:
        return state.debug
    return _global_debug


cdef bint retain_graph_enabled(ThreadState state):
    # read once per backward pass: False releases what each node retained
    # once its backward ran
    if state.retain_graph >= 0:
        return state.retain_graph
    return _global_retain_graph


cdef int set_local_backprop(ThreadState state, int value) except -1:
    # value -1 removes the local override.
    if value < 0:
        state.config.pop('enable_backprop', None)
    else:
        state.config['enable_backprop'] = bool(value)
    state.enable_backprop = value
    return 0


cpdef bint in_light_mode():
    """Whether type checks of this thread run in light mode."""
    return get_state().light_mode


cpdef bint set_light_mode(bint value):
    """Sets this thread's light-mode flag; returns the previous value."""
    cdef ThreadState state = get_state()
    cdef bint previous = state.light_mode
    state.light_mode = value
    return previous


cdef int _flag(value) except -2:
    return 1 if value else 0


# chainerlite's own entries: readable with these defaults but, until set,
# neither listed by dir() nor printed by show(), so that global_config shows
# Chainer's entries only. Deleting one that was set restores its default.
cdef dict _UNLISTED_DEFAULTS = {'retain_graph': True}


cdef class GlobalConfig:
    """Configuration shared by all threads (``chainerlite.global_config``)."""

    cdef dict _values

    def __cinit__(self):
        self._values = {}

    def __getattr__(self, name):
        try:
            return self._values[name]
        except KeyError:
            pass
        try:
            return _UNLISTED_DEFAULTS[name]
        except KeyError:
            raise AttributeError(
                "'GlobalConfig' object has no attribute '%s'" % name) from None

    def __setattr__(self, name, value):
        global _global_backprop, _global_type_check, _global_debug
        global _global_retain_graph
        if name == 'enable_backprop':
            _global_backprop = _flag(value)
        elif name == 'type_check':
            _global_type_check = _flag(value)
        elif name == 'debug':
            _global_debug = _flag(value)
        elif name == 'retain_graph':
            _global_retain_graph = _flag(value)
        self._values[name] = value

    def __delattr__(self, name):
        global _global_retain_graph
        if name in ('enable_backprop', 'type_check', 'debug'):
            raise AttributeError(
                'global_config.%s cannot be deleted' % name)
        if name == 'retain_graph':
            self._values.pop(name, None)
            _global_retain_graph = 1
            return
        try:
            del self._values[name]
        except KeyError:
            raise AttributeError(name) from None

    def __dir__(self):
        return sorted(self._values)

    def show(self, file=sys.stdout):
        """Prints every configuration entry, one per line, sorted by name."""
        _show(self._values, file)


cdef class LocalConfig:
    """Thread-local view of a :class:`GlobalConfig` (``chainerlite.config``).

    Reading an entry returns this thread's override if it has one, otherwise
    the global value; writing sets an override for the current thread only.
    """

    cdef readonly GlobalConfig _global

    def __init__(self, GlobalConfig global_config not None):
        self._global = global_config

    @property
    def _local(self):
        return _LocalView(get_state().config)

    def __getattr__(self, name):
        cdef dict local = get_state().config
        if name in local:
            return local[name]
        return getattr(self._global, name)

    def __setattr__(self, name, value):
        cdef ThreadState state = get_state()
        if name == 'enable_backprop':
            state.enable_backprop = _flag(value)
        elif name == 'type_check':
            state.type_check = _flag(value)
        elif name == 'debug':
            state.debug = _flag(value)
        elif name == 'retain_graph':
            state.retain_graph = _flag(value)
        state.config[name] = value

    def __delattr__(self, name):
        cdef ThreadState state = get_state()
        if name not in state.config:
            raise AttributeError(name)
        del state.config[name]
        if name == 'enable_backprop':
            state.enable_backprop = -1
        elif name == 'type_check':
            state.type_check = -1
        elif name == 'debug':
            state.debug = -1
        elif name == 'retain_graph':
            state.retain_graph = -1

    def show(self, file=sys.stdout):
        """Prints the effective configuration of this thread, sorted by name."""
        values = dict(self._global._values)
        values.update(get_state().config)
        _show(values, file)


class _LocalView(object):
    """Attribute view of a thread's overrides (``hasattr(config._local, n)``)."""

    def __init__(self, values):
        object.__setattr__(self, '_values', values)

    def __getattr__(self, name):
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(name) from None


def _show(values, file):
    width = max([len(k) for k in values] or [0])
    for key in sorted(values):
        file.write('%s %s\n' % (key.ljust(width), values[key]))


cdef class _ConfigContext:
    """Context manager behind :func:`using_config`."""

    cdef object _config, _name, _value, _old
    cdef bint _had_old

    def __init__(self, config, name, value):
        self._config = config
        self._name = name
        self._value = value

    def __enter__(self):
        config = self._config
        if isinstance(config, LocalConfig):
            local = get_state().config
            self._had_old = self._name in local
            if self._had_old:
                self._old = local[self._name]
        else:
            self._had_old = hasattr(config, self._name)
            if self._had_old:
                self._old = getattr(config, self._name)
        setattr(config, self._name, self._value)
        return None

    def __exit__(self, *exc):
        if self._had_old:
            setattr(self._config, self._name, self._old)
            self._old = None
        else:
            delattr(self._config, self._name)
        return False


global_config = GlobalConfig()
config = LocalConfig(global_config)


def using_config(name, value, config=config):
    """Returns a context manager that sets ``config.<name> = value`` inside it.

    The previous state (a value, or no thread-local value at all) is restored
    on exit, also when the body raises. Nesting is allowed.

    Args:
        name (str): Name of the configuration entry.
        value: Value set while the context is active.
        config: The configuration object to modify; defaults to the
            thread-local ``chainerlite.config``.
    """
    return _ConfigContext(config, name, value)


cdef class _BackpropModeContext(_ConfigContext):
    """Context manager of :func:`no_backprop_mode` and
    :func:`force_backprop_mode` (the class of Chainer's)."""


def no_backprop_mode():
    """Context manager that disables graph construction in this thread.

    Functions applied inside it produce Variables without a creator, so no
    memory is spent on backprop bookkeeping. Equivalent to
    ``using_config('enable_backprop', False)``.
    """
    return _BackpropModeContext(config, 'enable_backprop', False)


def force_backprop_mode():
    """Context manager that enables graph construction in this thread.

    It overrides an enclosing :func:`no_backprop_mode`. Equivalent to
    ``using_config('enable_backprop', True)``.
    """
    return _BackpropModeContext(config, 'enable_backprop', True)
