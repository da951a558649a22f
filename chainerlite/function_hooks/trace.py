"""Function hook that records a timeline of calls (Chrome trace format)."""

import collections
import json
import os
import time

from chainerlite import function_hook
from chainerlite.function_hooks import _stack

_clock = time.perf_counter_ns

TraceEvent = collections.namedtuple(
    'TraceEvent', ('name', 'phase', 'start', 'duration', 'thread_id', 'depth')
)
TraceEvent.__doc__ = """One recorded call of :class:`TraceHook`.

Attributes:
    name (str): Name of the function (its class name).
    phase (str): ``'forward'`` or ``'backward'``.
    start (float): Seconds from the creation of the hook to the call.
    duration (float): Seconds the call took, nested calls included.
    thread_id (int): Operating-system id of the thread that ran it.
    depth (int): Number of recorded calls of that thread it ran inside
        (0 for an outermost call).
"""


class TraceHook(function_hook.FunctionHook):
    """Function hook that records when each function ran, for a timeline.

    Every forward and backward call is recorded with its start time,
    duration, thread and nesting depth, including calls nested in another
    one (the functions :func:`~chainerlite.functions.forget` recomputes
    inside its backward, or the functions a backward is built of).
    :meth:`save` writes the calls as a Chrome trace that Perfetto
    (https://ui.perfetto.dev) and ``chrome://tracing`` open as a timeline.

    Hooks registered with ``with hook:`` are per thread: a hook sees the
    calls of each thread where it was entered (the same hook may be entered
    in several threads at once) and each call is recorded with the id of
    its thread. Only names and numbers are kept, never function nodes or
    arrays. Times are taken with :func:`time.perf_counter_ns` when the
    callbacks run; GPU work is asynchronous, so on the GPU a duration is the
    time to launch the kernels unless something synchronises.

    A call that raises is not recorded (hooks are not told it ended). It
    still counts as an enclosing call, for the depth of the calls made
    after it, until the call it was nested in ends, or, for an outermost
    call, until the hook is next registered with ``with``.

    Attributes:
        events (list of TraceEvent): The recorded calls, in order of start.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite as chainer
        >>> import chainerlite.functions as F
        >>> from chainerlite.function_hooks import TraceHook
        >>> x = chainer.Variable(np.ones(3, np.float32))
        >>> with TraceHook() as trace:
        ...     y = F.sum(F.exp(x))
        ...     y.backward()
        >>> [(e.name, e.phase, e.depth) for e in trace.events]
        ... # doctest: +NORMALIZE_WHITESPACE
        [('Exp', 'forward', 0), ('Sum', 'forward', 0),
         ('Sum', 'backward', 0), ('BroadcastTo', 'forward', 1),
         ('Exp', 'backward', 0), ('Mul', 'forward', 1)]
        >>> trace.save('trace.json')  # doctest: +SKIP
    """

    name = 'TraceHook'

    def __init__(self):
        self._origin = _clock()
        self._threads = _stack.CallStacks()
        # (name, phase, start ns, duration ns, thread id, depth) per call
        self._records = []

    def added(self, function):
        if function is None:
            self._threads.reset()

    def _push(self, function):
        stack = self._threads.stack
        stack.append((id(function), len(stack), _clock()))

    def _pop(self, function, phase):
        end = _clock()
        local = self._threads
        entry = _stack.pop_call(local.stack, id(function))
        if entry is not None:
            self._records.append(
                (
                    function._impl_name,
                    phase,
                    entry[2],
                    end - entry[2],
                    local.thread_id,
                    entry[1],
                )
            )

    def forward_preprocess(self, function, in_data):
        self._push(function)

    def forward_postprocess(self, function, in_data):
        self._pop(function, 'forward')

    def backward_preprocess(self, function, in_data, out_grad):
        self._push(function)

    def backward_postprocess(self, function, in_data, out_grad):
        self._pop(function, 'backward')

    @property
    def events(self):
        origin = self._origin
        return [
            TraceEvent(
                name, phase, (start - origin) * 1e-9, duration * 1e-9, tid, depth
            )
            for name, phase, start, duration, tid, depth in sorted(
                self._records, key=_start_then_depth
            )
        ]

    def chrome_trace(self):
        """Returns the calls as a Chrome trace (a JSON-serialisable dict).

        Returns:
            dict: ``{'traceEvents': [...], 'displayTimeUnit': 'ms'}`` where
            each event is a complete event (``'ph': 'X'``) with ``name``,
            ``cat`` (the phase), ``ts`` and ``dur`` (microseconds, ``ts``
            from the creation of the hook), ``pid``, ``tid`` and ``args``
            (``{'depth': ...}``).
        """
        pid = os.getpid()
        origin = self._origin
        events = [
            {
                'name': name,
                'cat': phase,
                'ph': 'X',
                'ts': (start - origin) / 1000.0,
                'dur': duration / 1000.0,
                'pid': pid,
                'tid': tid,
                'args': {'depth': depth},
            }
            for name, phase, start, duration, tid, depth in sorted(
                self._records, key=_start_then_depth
            )
        ]
        return {'traceEvents': events, 'displayTimeUnit': 'ms'}

    def save(self, path):
        """Writes the calls to ``path`` as a Chrome trace JSON file.

        Args:
            path (str or os.PathLike): The file to write (conventionally
                ``*.json``); open it in Perfetto or ``chrome://tracing``.
        """
        with open(path, 'w') as f:
            json.dump(self.chrome_trace(), f)


def _start_then_depth(record):
    return record[2], record[5]
