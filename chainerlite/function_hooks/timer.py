"""Function hook that measures the time spent in each function."""

import collections
import sys
import time

import numpy

from chainerlite import backend
from chainerlite import function_hook

_UNITS = (('sec', 1.0), ('ms', 1e3), ('us', 1e6), ('ns', 1e9))


def _choose_unit(seconds):
    # The largest unit in which the value is at least one (ns at the least).
    for unit, factor in _UNITS[:-1]:
        if seconds * factor >= 1:
            return unit, factor
    return _UNITS[-1]


class _Stopwatch:
    """Measures one call on the CPU clock, or with CUDA events on the GPU."""

    def __init__(self, xp):
        self._xp = xp
        if xp is numpy:
            self._start = time.perf_counter()
        else:
            self._start = xp.cuda.Event()
            self._start.record()

    def elapsed(self):
        """Returns the seconds since this stopwatch was created."""
        if self._xp is numpy:
            return time.perf_counter() - self._start
        stop = self._xp.cuda.Event()
        stop.record()
        stop.synchronize()
        return self._xp.cuda.get_elapsed_time(self._start, stop) / 1000


class TimerHook(function_hook.FunctionHook):
    """Function hook that measures the elapsed time of functions.

    Every forward and backward computation of a function node is timed: on
    the CPU with :func:`time.perf_counter`, on the GPU with CUDA events.
    Calls that run inside another timed call (for example the functions
    that :func:`~chainerlite.functions.forget` recomputes during its
    backward) are recorded too, but :meth:`total_time` counts only the
    outermost calls, so no time is counted twice. The hook keeps function
    names and numbers only, never the function nodes themselves.

    Code example::

        from chainerlite.function_hooks import TimerHook
        hook = TimerHook()
        with hook:
            trainer.run()
        hook.print_report()

    Output example::

               FunctionName  ElapsedTime  Occurrence
             LinearFunction      1.24sec        3900
                       ReLU      0.59sec        2600
        SoftmaxCrossEntropy      0.82sec        1300
                   Accuracy      0.18sec         700

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
        self.call_history = []
        self._running = []
        self._total_time = 0.0

    def _start(self, arrays):
        xp = backend.get_array_module(*arrays)
        self._running.append(_Stopwatch(xp))

    def _stop(self, function):
        elapsed = self._running.pop().elapsed()
        self.call_history.append((function._impl_name, elapsed))
        if not self._running:
            self._total_time += elapsed

    def forward_preprocess(self, function, in_data):
        self._start(in_data)

    def forward_postprocess(self, function, in_data):
        self._stop(function)

    def backward_preprocess(self, function, in_data, out_grad):
        self._start(in_data + out_grad)

    def backward_postprocess(self, function, in_data, out_grad):
        self._stop(function)

    def total_time(self):
        """Returns the total elapsed time of the outermost calls.

        Returns:
            float: Seconds spent in measured calls; nested calls are part
            of their enclosing call's time and are not added again.

        """
        return self._total_time

    def summary(self):
        """Returns the elapsed time and the number of calls per function.

        Returns:
            collections.OrderedDict: Maps each function name, in order of
            first appearance, to a dict with keys ``'elapsed_time'`` (total
            seconds of its calls) and ``'occurrence'`` (number of calls).

        """
        result = collections.OrderedDict()
        for name, elapsed in self.call_history:
            record = result.setdefault(
                name, {'elapsed_time': 0.0, 'occurrence': 0})
            record['elapsed_time'] += elapsed
            record['occurrence'] += 1
        return result

    def print_report(self, unit='auto', file=sys.stdout):
        """Prints a table of the time spent in each function.

        Args:
            unit (str): Unit of the times: ``'sec'``, ``'ms'``, ``'us'``,
                ``'ns'``, ``'auto'`` (one unit chosen from the largest time)
                or ``'auto_foreach'`` (a unit chosen for each row).
            file: Text stream the table is written to.

        """
        summary = self.summary()
        units = dict(_UNITS)
        if unit == 'auto':
            longest = max(
                (record['elapsed_time'] for record in summary.values()),
                default=0.0)
            unit, factor = _choose_unit(longest)
        elif unit != 'auto_foreach':
            factor = units[unit]
        rows = [('FunctionName', 'ElapsedTime', 'Occurrence')]
        for name, record in summary.items():
            seconds = record['elapsed_time']
            if unit == 'auto_foreach':
                row_unit, row_factor = _choose_unit(seconds)
            else:
                row_unit, row_factor = unit, factor
            rows.append((name, '{:.2f}{}'.format(seconds * row_factor, row_unit),
                         str(record['occurrence'])))
        widths = [max(len(row[i]) for row in rows) for i in range(3)]
        for row in rows:
            file.write('  '.join(
                cell.rjust(width) for cell, width in zip(row, widths)))
            file.write('\n')
        file.flush()
