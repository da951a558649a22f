"""Function hook that measures the time spent in each function."""

import collections
import sys
import time

from chainerlite import function_hook
from chainerlite.backends import cuda
from chainerlite.function_hooks import _stack

_UNITS = (('sec', 1.0), ('ms', 1e3), ('us', 1e6), ('ns', 1e9))
_perf_counter = time.perf_counter
_FORWARD, _BACKWARD = 1, 2   # indexes into the per-function stats


def _choose_unit(seconds):
    # The largest unit in which the value is at least one (ns at the least).
    for unit, factor in _UNITS[:-1]:
        if seconds * factor >= 1:
            return unit, factor
    return _UNITS[-1]


def _on_gpu(arrays):
    return cuda.cupy is not None and any(
        isinstance(a, cuda.cupy.ndarray) for a in arrays)


class TimerHook(function_hook.FunctionHook):
    """Function hook that measures the elapsed time of functions.

    Every forward and backward computation of a function node is timed: on
    the CPU with :func:`time.perf_counter`, on the GPU with CUDA events that
    are only synchronised when results are read (never after each call).
    Calls nested in another timed call (for example the functions that
    :func:`~chainerlite.functions.forget` recomputes during its backward)
    are recorded too; :meth:`total_time` counts only the outermost calls, so
    no time is counted twice, and each function's *self* time excludes the
    calls nested in it. The hook keeps names and numbers only, never the
    function nodes themselves.

    Attributes:
        call_history (list of tuple): One ``(function_name, seconds)`` pair
            per measured call, in the order the calls finished.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite as chainer
        >>> import chainerlite.functions as F
        >>> import chainerlite.links as L
        >>> from chainerlite.function_hooks import TimerHook
        >>> model1, model2, model3 = (L.Linear(3, 3) for _ in range(3))
        >>> x = chainer.Variable(np.ones((2, 3), np.float32))
        >>> with TimerHook() as m:
        ...     y = model1(x)
        ...     z = F.exp(model2(y))
        >>> w = model3(z)  # not measured
        >>> m.total_time() > 0
        True
        >>> {name: record['occurrence']
        ...  for name, record in sorted(m.summary().items())}
        {'Exp': 1, 'LinearFunction': 2}
    """

    name = 'TimerHook'

    def __init__(self):
        self._history = []
        self._calls = _stack.CallStacks()   # running calls, per thread
        self._total_time = 0.0
        self._stats = {}        # name -> [self, forward, backward] seconds
        self._gpu_calls = []    # finished GPU calls awaiting their events
        self._gpu_ids = 0

    def added(self, function):
        if function is None:
            # calls that raised at top level earlier stay marked as running
            # until then; a new registration starts from a clean stack
            self._calls.reset()

    # -- recording -------------------------------------------------------
    # The callbacks run on every op, so the CPU path is kept to a few list
    # and dict operations. A running call is
    # [id(function), start, nested seconds, phase]; a call that raised is
    # dropped when its caller finishes (see _stack.pop_call).
    def _start_gpu(self, function, phase):
        event = cuda.cupy.cuda.Event()
        event.record()
        self._gpu_ids += 1
        self._calls.stack.append([id(function), event, self._gpu_ids, phase])

    def _stop(self, function):
        stack = self._calls.stack
        if stack and stack[-1][0] == id(function):
            entry = stack.pop()
        else:
            entry = _stack.pop_call(stack, id(function))
            if entry is None:
                return  # began before the hook was registered
        start = entry[1]
        if type(start) is not float:
            self._stop_gpu(function, start, entry[2], entry[3], stack)
            return
        elapsed = _perf_counter() - start
        name = function._impl_name
        self._history.append((name, elapsed))
        stats = self._stats.get(name)
        if stats is None:
            stats = self._stats[name] = [0.0, 0.0, 0.0]
        stats[0] += elapsed - entry[2]
        stats[entry[3]] += elapsed
        if not stack:
            self._total_time += elapsed
        elif type(stack[-1][1]) is float:
            stack[-1][2] += elapsed

    def _record(self, name, phase, elapsed, self_time):
        self._history.append((name, elapsed))
        stats = self._stats.get(name)
        if stats is None:
            stats = self._stats[name] = [0.0, 0.0, 0.0]
        stats[0] += self_time
        stats[phase] += elapsed

    def _stop_gpu(self, function, start, call_id, phase, stack):
        stop = cuda.cupy.cuda.Event()
        stop.record()
        parent = stack[-1][2] if stack else None
        self._gpu_calls.append(
            (function._impl_name, phase, start, stop, call_id, parent))

    def _resolve(self):
        # Reads the CUDA events of finished GPU calls (children finish, and
        # so are listed, before their parents).
        calls, self._gpu_calls = self._gpu_calls, []
        if not calls:
            return
        calls[-1][3].synchronize()
        nested = collections.defaultdict(float)
        for name, phase, start, stop, call_id, parent in calls:
            elapsed = cuda.cupy.cuda.get_elapsed_time(start, stop) / 1000
            self._record(name, phase, elapsed, elapsed - nested[call_id])
            if parent is None:
                self._total_time += elapsed
            else:
                nested[parent] += elapsed

    def forward_preprocess(self, function, in_data):
        if cuda.cupy is not None and _on_gpu(in_data):
            self._start_gpu(function, _FORWARD)
        else:
            self._calls.stack.append(
                [id(function), _perf_counter(), 0.0, _FORWARD])

    def forward_postprocess(self, function, in_data):
        self._stop(function)

    def backward_preprocess(self, function, in_data, out_grad):
        if cuda.cupy is not None and _on_gpu(in_data + out_grad):
            self._start_gpu(function, _BACKWARD)
        else:
            self._calls.stack.append(
                [id(function), _perf_counter(), 0.0, _BACKWARD])

    def backward_postprocess(self, function, in_data, out_grad):
        self._stop(function)

    # -- results -----------------------------------------------------------
    @property
    def call_history(self):
        self._resolve()
        return self._history

    def total_time(self):
        """Returns the total elapsed time of the outermost calls.

        Returns:
            float: Seconds spent in measured calls; nested calls are part
            of their enclosing call's time and are not added again.
        """
        self._resolve()
        return self._total_time

    def summary(self):
        """Returns the time and the number of calls per function.

        Returns:
            collections.OrderedDict: Maps each function name, in order of
            first appearance, to a dict with ``'elapsed_time'`` (total
            seconds of its calls, nested calls included), ``'occurrence'``
            (number of calls), ``'self_time'`` (seconds without the calls
            nested in it), and ``'forward_time'`` / ``'backward_time'``
            (elapsed time split by direction).
        """
        result = collections.OrderedDict()
        for name, elapsed in self.call_history:
            record = result.get(name)
            if record is None:
                stats = self._stats.get(name)
                record = result[name] = {
                    'elapsed_time': 0.0, 'occurrence': 0,
                    'self_time': None if stats is None else stats[0],
                    'forward_time': None if stats is None else stats[1],
                    'backward_time': None if stats is None else stats[2]}
            record['elapsed_time'] += elapsed
            record['occurrence'] += 1
        return result

    def print_report(self, unit='auto', file=sys.stdout):
        """Prints a table of the time spent in each function.

        Columns: function name, elapsed time (nested calls included), number
        of calls, self time, forward time and backward time.

        Args:
            unit (str): Unit of the times: ``'sec'``, ``'ms'``, ``'us'``,
                ``'ns'``, ``'auto'`` (one unit chosen from the largest time)
                or ``'auto_foreach'`` (a unit chosen for each row).
            file: Text stream the table is written to.
        """
        summary = self.summary()
        if unit == 'auto':
            longest = max((r['elapsed_time'] for r in summary.values()),
                          default=0.0)
            unit, factor = _choose_unit(longest)
        elif unit != 'auto_foreach':
            factor = dict(_UNITS)[unit]
        rows = [('FunctionName', 'ElapsedTime', 'Occurrence', 'SelfTime',
                 'Forward', 'Backward')]
        for name, record in summary.items():
            if unit == 'auto_foreach':
                row_unit, row_factor = _choose_unit(record['elapsed_time'])
            else:
                row_unit, row_factor = unit, factor

            def fmt(seconds):
                if seconds is None:
                    return '-'
                return '{:.2f}{}'.format(seconds * row_factor, row_unit)
            rows.append((name, fmt(record['elapsed_time']),
                         str(record['occurrence']), fmt(record['self_time']),
                         fmt(record['forward_time']),
                         fmt(record['backward_time'])))
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        for row in rows:
            file.write('  '.join(
                cell.rjust(width) for cell, width in zip(row, widths)))
            file.write('\n')
        file.flush()
