"""Compiled recording for ``function_hooks.TimerHook``.

A timer's callbacks run around every op, so their bookkeeping (a per-thread
stack of running calls, per-function sums, the call history) lives here;
``chainerlite.function_hooks.timer`` keeps the public class, its reports and
the CUDA-event path.
"""
cimport cython
from cpython.dict cimport PyDict_GetItem
from cpython.ref cimport PyObject
from libc.stdlib cimport free, realloc

from chainerlite._core.config cimport ThreadState, get_state
from chainerlite._core.facts cimport PLAIN_IMPL_NAME, ClassFacts, class_facts
from chainerlite._core.hooks cimport CompiledHook
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
    # phase: 1 forward, 2 backward, 3 recomputation (index into Stat.by_phase)
    cdef int phase
    cdef int depth               # hooked calls running around this one
    cdef object event            # CUDA start event on the GPU, else None
    cdef long call_id


@cython.final
cdef class _CallStack:
    """A thread's running calls, innermost last. Its list only grows, so
    pushing and popping never resize it; popped slots are cleared."""

    cdef list items
    cdef Py_ssize_t n

    def __cinit__(self):
        self.items = []

    cdef inline _Call at(self, Py_ssize_t i):
        return <_Call>self.items[i]

    cdef inline int push(self, _Call call) except -1:
        if self.n < len(self.items):
            self.items[self.n] = call
        else:
            self.items.append(call)
        self.n += 1
        return 0

    cdef inline _Call pop(self):
        self.n -= 1
        call = <_Call>self.items[self.n]
        self.items[self.n] = None
        return call

    cdef int truncate(self, Py_ssize_t n) except -1:
        while self.n > n:
            self.pop()
        return 0


cdef class Stat:
    """Seconds spent in one function: without nested calls, and by phase."""

    cdef readonly double self_time
    # [unused, forward, backward, forward run again by F.forget's
    # recomputation (config.in_recomputing)]
    cdef double by_phase[4]
    cdef Py_ssize_t occurrences

    @property
    def forward_time(self):
        return self.by_phase[1]

    @property
    def backward_time(self):
        return self.by_phase[2]

    @property
    def recompute_time(self):
        return self.by_phase[3]


cdef class TimerRecorder(CompiledHook):
    """Accumulates the timings of one TimerHook.

    Finished calls are kept as (name index, seconds) in a C buffer and
    become ``(name, seconds)`` tuples when ``history`` is read: a timed op
    allocates no Python object for its record (nor feeds the garbage
    collector one).

    Attributes:
        history (list): ``(function_name, seconds)`` per finished call.
        stats (dict): ``name -> Stat``.
        outer_time (float): Seconds of the outermost calls.
        gpu_calls (list): Finished GPU calls whose CUDA events are not read
            yet: ``(name, phase, start, stop, call_id, parent_id)``.
    """

    cdef list _history           # finished calls already made tuples
    cdef readonly dict stats
    cdef public double outer_time
    cdef public list gpu_calls
    cdef long _gpu_ids
    # calls finished since history was last read
    cdef Py_ssize_t* _pending_name   # index into _names
    cdef double* _pending_elapsed
    cdef Py_ssize_t _n_pending
    cdef Py_ssize_t _cap_pending
    cdef list _names             # index -> name
    cdef list _stat_of           # index -> Stat of that name
    cdef dict _index             # name -> index
    # the stack of the thread that used the recorder last
    cdef ThreadState _last_state
    cdef _CallStack _last_stack
    # the name index of the node class met last, while its facts hold
    cdef ClassFacts _name_facts
    cdef Py_ssize_t _name_idx

    def __cinit__(self):
        self._history = []
        self.stats = {}
        self.gpu_calls = []
        self._names = []
        self._stat_of = []
        self._index = {}

    def __dealloc__(self):
        free(self._pending_name)
        free(self._pending_elapsed)

    @property
    def history(self):
        self._flush()
        return self._history

    @history.setter
    def history(self, list value not None):
        self._n_pending = 0
        self._history = value

    cdef int _flush(self) except -1:
        cdef Py_ssize_t i
        cdef list names = self._names
        for i in range(self._n_pending):
            self._history.append(
                (names[self._pending_name[i]], self._pending_elapsed[i]))
        self._n_pending = 0
        return 0

    def __copy__(self):
        # copy.copy, as Chainer's TimerHook takes it: a hook of its own with
        # the records so far (deepcopy and pickle stay refused, as there)
        cdef TimerRecorder new = type(self).__new__(type(self))
        cdef Stat old_stat, stat
        self._flush()
        new._history = list(self._history)
        new.outer_time = self.outer_time
        new.gpu_calls = list(self.gpu_calls)
        new._names = list(self._names)
        new._index = dict(self._index)
        copies = {}
        for old_stat in self._stat_of:
            stat = Stat.__new__(Stat)
            stat.self_time = old_stat.self_time
            stat.by_phase = old_stat.by_phase
            stat.occurrences = old_stat.occurrences
            new._stat_of.append(stat)
            copies[old_stat] = stat
        for name, old_stat in self.stats.items():
            new.stats[name] = copies[old_stat]
        own = getattr(self, '__dict__', None)
        if own:
            new.__dict__.update(own)
        return new

    cdef _CallStack _stack(self, ThreadState state):
        # This thread's running calls, kept in the thread's state under the
        # recorder itself (removed again by reset_thread).
        if state is self._last_state:
            return self._last_stack
        if state.scratch is None:
            state.scratch = {}
        stack = state.scratch.get(self)
        if stack is None:
            stack = state.scratch[self] = _CallStack()
        self._last_state = state
        self._last_stack = <_CallStack>stack
        return <_CallStack>stack

    def reset_thread(self):
        """Forgets the calls this thread has marked as running."""
        cdef ThreadState state = get_state()
        if state.scratch is not None:
            state.scratch.pop(self, None)
        if state is self._last_state:
            self._last_state = None
            self._last_stack = None

    cdef Py_ssize_t _name_index(self, function) except -1:
        # the index of function._impl_name, remembered with the facts of
        # the class met last where the class does not override it (then it
        # is the class's name); a modified class has new facts
        cdef ClassFacts facts = class_facts(type(function))
        if facts is self._name_facts:
            return self._name_idx
        cdef Py_ssize_t idx = self._intern(function._impl_name)
        if facts.flags & PLAIN_IMPL_NAME:
            self._name_facts = facts
            self._name_idx = idx
        return idx

    cdef Py_ssize_t _intern(self, name) except -1:
        found = self._index.get(name)
        if found is not None:
            return <Py_ssize_t>found
        cdef Py_ssize_t idx = len(self._names)
        self._names.append(name)
        self._stat_of.append(Stat.__new__(Stat))
        self._index[name] = idx
        return idx

    cdef int call(self, int index, function, in_data, out) except -1:
        if index == 0 or index == 2:
            return self.start(function, in_data, out, index // 2 + 1)
        return self.stop(function)

    cdef int start(self, function, tuple arrays, tuple more,
                   int phase) except -1:
        cdef ThreadState state = get_state()
        cdef _CallStack stack = self._stack(state)
        cdef _Call call = _Call.__new__(_Call)
        if phase == 1 and _recomputing(state):
            phase = 3
        # Calls at this depth or deeper that are still on the stack raised
        # instead of returning: they are over.
        while stack.n and stack.at(stack.n - 1).depth >= state.running:
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
        stack.push(call)
        return 0

    cdef int stop(self, function) except -1:
        cdef _CallStack stack = self._stack(get_state())
        cdef _Call call, parent = None
        cdef Py_ssize_t key = <Py_ssize_t><PyObject*>function, i
        cdef double elapsed
        if stack.n and stack.at(stack.n - 1).key == key:
            call = stack.pop()
        else:
            # calls that raised never reached their postprocess: drop them
            for i in range(stack.n - 2, -1, -1):
                if stack.at(i).key == key:
                    break
            else:
                return 0  # began before the hook was registered
            call = stack.at(i)
            stack.truncate(i)
        if stack.n:
            parent = stack.at(stack.n - 1)
        if call.event is not None:
            stop = _cupy.cuda.Event()
            stop.record()
            self.gpu_calls.append(
                (self._names[self._name_index(function)], call.phase, call.event, stop,
                 call.call_id, None if parent is None else parent.call_id))
            return 0
        elapsed = chainerlite_now() - call.start
        self._add(self._name_index(function), call.phase, elapsed,
                  elapsed - call.nested)
        if parent is None:
            self.outer_time += elapsed
        elif parent.event is None:
            parent.nested += elapsed
        return 0

    def record(self, name, int phase, double elapsed, double self_time):
        """Adds one finished call to the history and the per-name sums."""
        if not 1 <= phase <= 3:
            raise ValueError('TimerRecorder.record: phase must be 1 (forward), '
                             '2 (backward) or 3 (recomputation), got %d'
                             % phase)
        self._add(self._intern(name), phase, elapsed, self_time)

    cdef int _add(self, Py_ssize_t idx, int phase, double elapsed,
                  double self_time) except -1:
        cdef Stat stat = <Stat>self._stat_of[idx]
        if stat.occurrences == 0:
            # in stats from its first finished call, in order of finishing
            self.stats[self._names[idx]] = stat
        stat.occurrences += 1
        stat.self_time += self_time
        stat.by_phase[phase] += elapsed
        if self._n_pending == self._cap_pending:
            self._grow()
        self._pending_name[self._n_pending] = idx
        self._pending_elapsed[self._n_pending] = elapsed
        self._n_pending += 1
        return 0

    cdef int _grow(self) except -1:
        cdef Py_ssize_t cap = max(256, 2 * self._cap_pending)
        cdef Py_ssize_t* names = <Py_ssize_t*>realloc(
            self._pending_name, cap * sizeof(Py_ssize_t))
        if names == NULL:
            raise MemoryError('TimerHook: no memory for the call history')
        self._pending_name = names
        cdef double* elapsed = <double*>realloc(
            self._pending_elapsed, cap * sizeof(double))
        if elapsed == NULL:
            raise MemoryError('TimerHook: no memory for the call history')
        self._pending_elapsed = elapsed
        self._cap_pending = cap
        return 0


cdef _IN_RECOMPUTING = 'in_recomputing'


cdef inline bint _recomputing(ThreadState state):
    # F.forget sets in_recomputing locally while it recomputes; an empty
    # dict (no local setting at all) is the common case
    if not state.config:
        return False
    cdef PyObject* value = PyDict_GetItem(state.config, _IN_RECOMPUTING)
    return value != NULL and <object>value is True


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
