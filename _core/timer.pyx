"""Compiled recording for ``function_hooks.TimerHook``.

A timer's callbacks run around every op, so their bookkeeping (a per-thread
stack of running calls, per-function sums, the call history) lives here;
``chainerlite.function_hooks.timer`` keeps the public class, its reports and
the CUDA-event path.
"""
cimport cython
from cpython.ref cimport PyObject

from chainerlite._core.config cimport ThreadState, get_state

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


cdef class TimerRecorder:
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

    def __cinit__(self):
        self.history = []
        self.stats = {}
        self.gpu_calls = []

    cdef list _stack(self, ThreadState state):
        # This thread's running calls, kept in the thread's state under the
        # recorder itself (removed again by reset_thread).
        if state.scratch is None:
            state.scratch = {}
        stack = state.scratch.get(self)
        if stack is None:
            stack = state.scratch[self] = []
        return <list>stack

    def reset_thread(self):
        """Forgets the calls this thread has marked as running."""
        cdef ThreadState state = get_state()
        if state.scratch is not None:
            state.scratch.pop(self, None)

    cdef int start(self, function, tuple arrays, int phase) except -1:
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
        if _cupy is not None and _on_gpu(arrays):
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
                (function._impl_name, call.phase, call.event, stop,
                 call.call_id, None if parent is None else parent.call_id))
            return 0
        elapsed = chainerlite_now() - call.start
        self.record(function._impl_name, call.phase, elapsed,
                    elapsed - call.nested)
        if parent is None:
            self.outer_time += elapsed
        elif parent.event is None:
            parent.nested += elapsed
        return 0

    cpdef record(self, name, int phase, double elapsed, double self_time):
        """Adds one finished call to the history and the per-name sums."""
        cdef Stat stat
        if phase != 1 and phase != 2:
            raise ValueError('TimerRecorder.record: phase must be 1 (forward) '
                             'or 2 (backward), got %d' % phase)
        self.history.append((name, elapsed))
        found = self.stats.get(name)
        if found is None:
            stat = Stat.__new__(Stat)
            self.stats[name] = stat
        else:
            stat = <Stat?>found
        stat.self_time += self_time
        stat.by_phase[phase] += elapsed


cdef bint _on_gpu(tuple arrays):
    for a in arrays:
        if isinstance(a, _cupy.ndarray):
            return True
    return False


# The callbacks of TimerHook, which derives from TimerRecorder: compiled
# functions that bind as methods, with no attribute lookup per call.

def forward_preprocess(TimerRecorder self not None, function, in_data):
    self.start(function, in_data, 1)


def forward_postprocess(TimerRecorder self not None, function, in_data):
    self.stop(function)


def backward_preprocess(TimerRecorder self not None, function, in_data, out_grad):
    self.start(function, in_data + out_grad, 2)


def backward_postprocess(TimerRecorder self not None, function, in_data, out_grad):
    self.stop(function)
