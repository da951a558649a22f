"""Compiled recording for ``function_hooks.TimerHook``.

A timer's callbacks run around every op, so their bookkeeping (a per-thread
stack of running calls, per-function sums, the call history) lives here;
``chainerlite.function_hooks.timer`` keeps the public class, its reports and
the CUDA-event path.
"""
cimport cython
from cpython.ref cimport PyObject

from chainerlite._core.config cimport ThreadState, get_state
from chainerlite._core.hooks cimport CompiledHook, _TypeWithTag
from chainerlite._core import hooks as _hooks

cdef extern from *:
    """
    #if defined(_WIN32)
    #include <windows.h>
    static double chainerlite_now(void) {
        LARGE_INTEGER f, c;
        QueryPerformanceFrequency(&f);
        QueryPerformanceCounter(&c);
        return (double)c.QuadPart / (double)f.QuadPart;
    }
    #else
    #include <time.h>
    static double chainerlite_now(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
    }
    #endif
    """
    double chainerlite_now() nogil   # monotonic clock, seconds

cdef object _cupy = None


def _set_cupy(module):
    """Tells the recorder which module's arrays are GPU arrays."""
    global _cupy
    _cupy = module


# No references to containers: kept out of the garbage collector's lists
@cython.no_gc
@cython.freelist(64)
cdef class _Call:
    """One running call: which function, since when, time of nested calls."""

    cdef Py_ssize_t key          # id() of the function node (never the node)
    cdef double start
    cdef double nested
    cdef int phase               # 1 forward, 2 backward (index into stats)
    cdef int depth               # hooked calls running around this one
    cdef object event            # CUDA start event on the GPU, else None
    cdef long call_id


cdef class Stat:
    """Seconds spent in one function: without nested calls, and by phase."""

    cdef readonly double self_time
    cdef double by_phase[3]     # [unused, forward, backward]

    @property
    def forward_time(self):
        return self.by_phase[1]

    @property
    def backward_time(self):
        return self.by_phase[2]


cdef class TimerRecorder(CompiledHook):
    """Accumulates the timings of one TimerHook.

    Attributes:
        history (list): ``(function_name, seconds)`` per finished call.
        stats (dict): ``name -> Stat``.
        outer_time (float): Seconds of the outermost calls.
        gpu_calls (list): Finished GPU calls whose CUDA events are not read
            yet: ``(name, phase, start, stop, call_id, parent_id)``.
    """

    cdef public list history
    cdef public dict stats
    cdef public double outer_time
    cdef public list gpu_calls
    cdef long _gpu_ids
    # the stack of the thread that used the recorder last
    cdef ThreadState _last_state
    cdef list _last_stack
    # the name of the node class met last, while the class is unchanged
    cdef object _name_type
    cdef unsigned int _name_tag
    cdef object _name

    def __cinit__(self):
        self.history = []
        self.stats = {}
        self.gpu_calls = []

    cdef list _stack(self, ThreadState state):
        # This thread's running calls, kept in the thread's state under the
        # recorder itself (removed again by reset_thread).
        if state is self._last_state:
            return self._last_stack
        if state.scratch is None:
            state.scratch = {}
        stack = state.scratch.get(self)
        if stack is None:
            stack = state.scratch[self] = []
        self._last_state = state
        self._last_stack = stack
        return <list>stack

    def reset_thread(self):
        """Forgets the calls this thread has marked as running."""
        cdef ThreadState state = get_state()
        if state.scratch is not None:
            state.scratch.pop(self, None)
        if state is self._last_state:
            self._last_state = None
            self._last_stack = None

    cdef object _name_of(self, function):
        # function._impl_name, remembered for the class met last where the
        # class does not override it (then it is the class's name)
        cls = type(function)
        cdef unsigned int tag = (<_TypeWithTag*><PyObject*>cls).tp_version_tag
        if cls is self._name_type and tag != 0 and tag == self._name_tag:
            return self._name
        name = function._impl_name
        if getattr(cls, '_impl_name', None) is _base_impl_name():
            self._name_type = cls
            self._name_tag = (<_TypeWithTag*><PyObject*>cls).tp_version_tag
            self._name = name
        return name

    cdef int call(self, int index, function, in_data, out) except -1:
        if index == 0 or index == 2:
            return self.start(function, in_data, out, index // 2 + 1)
        return self.stop(function)

    cdef int start(self, function, tuple arrays, tuple more,
                   int phase) except -1:
        cdef ThreadState state = get_state()
        cdef list stack = self._stack(state)
        cdef _Call call = _Call.__new__(_Call)
        # Calls at this depth or deeper that are still on the stack raised
        # instead of returning: they are over.
        while stack and (<_Call>stack[-1]).depth >= state.running:
            stack.pop()
        call.key = <Py_ssize_t><PyObject*>function
        call.phase = phase
        call.depth = state.running
        if _cupy is not None and (
                _on_gpu(arrays) or (more is not None and _on_gpu(more))):
            call.event = _cupy.cuda.Event()
            call.event.record()
            self._gpu_ids += 1
            call.call_id = self._gpu_ids
        else:
            call.start = chainerlite_now()
        stack.append(call)
        return 0

    cdef int stop(self, function) except -1:
        cdef list stack = self._stack(get_state())
        cdef _Call call, parent
        cdef Py_ssize_t key = <Py_ssize_t><PyObject*>function, i
        cdef double elapsed
        if stack and (<_Call>stack[-1]).key == key:
            call = stack.pop()
        else:
            # calls that raised never reached their postprocess: drop them
            for i in range(len(stack) - 2, -1, -1):
                if (<_Call>stack[i]).key == key:
                    break
            else:
                return 0  # began before the hook was registered
            call = stack[i]
            del stack[i:]
        parent = stack[-1] if stack else None
        if call.event is not None:
            stop = _cupy.cuda.Event()
            stop.record()
            self.gpu_calls.append(
                (self._name_of(function), call.phase, call.event, stop,
                 call.call_id, None if parent is None else parent.call_id))
            return 0
        elapsed = chainerlite_now() - call.start
        self._add(self._name_of(function), call.phase, elapsed,
                  elapsed - call.nested)
        if parent is None:
            self.outer_time += elapsed
        elif parent.event is None:
            parent.nested += elapsed
        return 0

    def record(self, name, int phase, double elapsed, double self_time):
        """Adds one finished call to the history and the per-name sums."""
        if phase != 1 and phase != 2:
            raise ValueError('TimerRecorder.record: phase must be 1 (forward) '
                             'or 2 (backward), got %d' % phase)
        self._add(name, phase, elapsed, self_time)

    cdef int _add(self, name, int phase, double elapsed,
                  double self_time) except -1:
        cdef Stat stat
        self.history.append((name, elapsed))
        found = self.stats.get(name)
        if found is None:
            stat = Stat.__new__(Stat)
            self.stats[name] = stat
        else:
            stat = <Stat?>found
        stat.self_time += self_time
        stat.by_phase[phase] += elapsed
        return 0


cdef bint _on_gpu(tuple arrays):
    for a in arrays:
        if isinstance(a, _cupy.ndarray):
            return True
    return False


# The callbacks of TimerHook, which derives from TimerRecorder: the
# dispatcher calls TimerRecorder.call for them, with no Python call.
forward_preprocess = _hooks.forward_preprocess
forward_postprocess = _hooks.forward_postprocess
backward_preprocess = _hooks.backward_preprocess
backward_postprocess = _hooks.backward_postprocess


cdef object _base_impl = None


cdef object _base_impl_name():
    # FunctionNode's own _impl_name (the node module imports this one's
    # users, so it is looked up on first use)
    global _base_impl
    if _base_impl is None:
        from chainerlite._core.node import FunctionNode
        _base_impl = FunctionNode.__dict__['_impl_name']
    return _base_impl
