"""Function hook that measures the host memory each function allocates."""

import operator
import sys
import tracemalloc

from chainerlite.function_hooks import _report
from chainerlite.function_hooks import _stack

# How the values of a call add up per function, and the report columns.
_FIELDS = (('allocated_bytes', operator.add), ('peak_bytes', max))
_COLUMNS = (('allocated_bytes', 'AllocatedBytes'), ('peak_bytes', 'PeakBytes'))

_traced = tracemalloc.get_traced_memory
_reset_peak = tracemalloc.reset_peak


class MemoryHook(_stack.CallStackHook):
    """Function hook that measures host memory allocated by each function.

    Memory is measured with :mod:`tracemalloc`, which sees every allocation
    made through Python's allocators, NumPy arrays included (not CuPy
    arrays: see :class:`CupyMemoryProfileHook`). For each forward and
    backward call the hook records

    * the *allocated* bytes: traced memory after the call minus before it
      (what the call left allocated, its outputs typically; negative when
      it freed more than it kept), and
    * the *peak* bytes: the highest traced memory during the call minus the
      memory before it (temporaries included).

    Both include the calls nested in the call (for example the functions
    :func:`~chainerlite.functions.forget` recomputes in its backward).
    Registering the hook starts tracing if :mod:`tracemalloc` is not already
    tracing, and unregistering it stops the tracing it started. Tracing
    slows every allocation down, so use the hook for diagnosis, not in
    production runs.

    Limitations: tracemalloc counts the whole process, so allocations of
    other threads made during a call are counted in it; the hook resets
    tracemalloc's peak (:func:`tracemalloc.reset_peak`) at each call, so do
    not read that peak yourself while the hook is active; and a few dozen
    bytes of the hook's own bookkeeping fall into each measurement.

    Attributes:
        call_history (list of tuple): One ``(function_name, allocated_bytes,
            peak_bytes)`` triple per call, in the order the calls finished.

    .. admonition:: Example

        >>> import io
        >>> import numpy as np
        >>> import chainerlite as chainer
        >>> import chainerlite.functions as F
        >>> from chainerlite.function_hooks import MemoryHook
        >>> x = chainer.Variable(np.ones((100, 100), np.float64))
        >>> with MemoryHook() as hook:
        ...     y = F.exp(x)
        >>> name, allocated, peak = hook.call_history[0]
        >>> name, allocated >= y.array.nbytes, peak >= allocated
        ('Exp', True, True)
        >>> out = io.StringIO()
        >>> hook.print_report(file=out)
        >>> print(out.getvalue())  # doctest: +SKIP
        FunctionName  AllocatedBytes  PeakBytes  Occurrence
                 Exp         78.28KB    78.28KB           1
    """

    name = 'MemoryHook'

    def __init__(self):
        self._threads = _stack.CallStacks()
        self.call_history = []
        self._total = 0
        self._registrations = 0
        self._started_tracing = False

    def added(self, function):
        if function is None:
            self._threads.reset()
        if self._registrations == 0 and not tracemalloc.is_tracing():
            tracemalloc.start()
            self._started_tracing = True
        self._registrations += 1

    def deleted(self, function):
        self._registrations -= 1
        if self._registrations == 0 and self._started_tracing:
            tracemalloc.stop()
            self._started_tracing = False

    # A running call is [id(function), memory before, highest peak seen].
    # Each call resets tracemalloc's peak, so before doing so it saves the
    # peak reached so far into the call it is nested in.
    def _push(self, function):
        stack = self._threads.stack
        current, peak = _traced()
        if stack and peak > stack[-1][2]:
            stack[-1][2] = peak
        _reset_peak()
        stack.append([id(function), current, current])

    def _pop(self, function):
        current, peak = _traced()
        stack = self._threads.stack
        entry = _stack.pop_call(stack, id(function))
        if entry is None:
            return
        if entry[2] > peak:
            peak = entry[2]
        if stack:
            if peak > stack[-1][2]:
                stack[-1][2] = peak
        else:
            self._total += current - entry[1]
        self.call_history.append(
            (function._impl_name, current - entry[1], peak - entry[1])
        )

    def total_bytes(self):
        """Returns the bytes allocated by the outermost calls, all together.

        Returns:
            int: Sum of the allocated bytes of the calls not nested in
            another recorded call (nested calls are part of their enclosing
            call and are not added again).
        """
        return self._total

    def summary(self):
        """Returns the memory statistics per function.

        Returns:
            collections.OrderedDict: Maps each function name, in order of
            first appearance, to a dict with ``'allocated_bytes'`` (sum over
            its calls), ``'peak_bytes'`` (the largest peak of its calls) and
            ``'occurrence'`` (number of calls).
        """
        return _report.summarize(self.call_history, _FIELDS)

    def print_report(self, unit='auto', file=sys.stdout):
        """Prints a table of the memory each function allocated.

        Columns: function name, allocated bytes, peak bytes, number of calls.

        Args:
            unit (str): Unit of the sizes: ``'B'``, ``'KB'``, ``'MB'``,
                ``'GB'``, ``'TB'``, ``'PB'``, ``'EB'``, ``'ZB'`` (powers of
                1024), ``'auto'`` (one unit chosen from the largest size) or
                ``'auto_foreach'`` (a unit chosen for each cell).
            file: Text stream the table is written to.
        """
        _report.write_byte_report(self.summary(), _COLUMNS, unit, file)
