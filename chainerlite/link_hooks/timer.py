"""Link hook that measures the time spent in each link's forward."""

import collections
import sys
import threading
import time

from chainerlite import backend
from chainerlite import link_hook
from chainerlite.backends import cuda
from chainerlite.function_hooks import _report
from chainerlite.function_hooks import timer as _function_timer


class TimerHook(link_hook.LinkHook):
    """Link hook that measures the elapsed time of the forward of links.

    Each call of a link is timed from just before its forward method to
    just after it, with :func:`time.perf_counter`; when the inputs are
    CuPy arrays the device is synchronised at both ends, so the time
    covers the kernels the call launched. A call of a link inside another
    one (a :class:`~chainerlite.Chain` calling its children) is recorded
    too and is part of the enclosing call's time; each link's *self* time
    leaves out the calls nested in it.

    Attributes:
        call_history (list of tuple): One ``(link_name, seconds)`` pair per
            call, in the order the calls finished; the name is the class
            name of the link.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite as chainer
        >>> from chainerlite.link_hooks import TimerHook
        >>> model = chainer.Sequential(chainer.links.Linear(3, 2))
        >>> with TimerHook() as hook:
        ...     _ = model(np.ones((1, 3), np.float32))
        >>> [name for name, _ in hook.call_history]
        ['Linear', 'Sequential']

    """

    name = 'TimerHook'
    table = dict(_function_timer.UNIT_TABLE)

    def __init__(self):
        self.call_history = []
        self._self_time = collections.defaultdict(float)
        self._local = threading.local()

    def _stack(self):
        try:
            return self._local.stack
        except AttributeError:
            stack = self._local.stack = []
            return stack

    def forward_preprocess(self, args):
        gpu = backend.get_array_module(*args.args) is cuda.cupy
        if gpu:
            cuda.cupy.cuda.Device().synchronize()
        # [start, time of nested calls, synchronise at the end]
        self._stack().append([time.perf_counter(), 0.0, gpu])

    def forward_postprocess(self, args):
        start, nested, gpu = self._stack().pop()
        if gpu:
            cuda.cupy.cuda.Device().synchronize()
        elapsed = time.perf_counter() - start
        stack = self._stack()
        if stack:
            stack[-1][1] += elapsed
        name = type(args.link).__name__
        self.call_history.append((name, elapsed))
        self._self_time[name] += elapsed - nested

    def total_time(self):
        """Returns the total elapsed time of the outermost calls, in seconds."""
        # The self times of all the calls add up to the time of the
        # outermost ones.
        return sum(self._self_time.values())

    def summary(self):
        """Returns the time and the number of calls per link class.

        Returns:
            collections.OrderedDict: Maps each link name, in order of first
            appearance, to a dict with ``'elapsed_time'`` (seconds, nested
            calls included), ``'occurrence'`` (number of calls) and
            ``'self_time'`` (seconds without the calls nested in it).

        """
        result = _report.summarize(
            self.call_history, (('elapsed_time', lambda a, b: a + b),)
        )
        for name, record in result.items():
            record['self_time'] = self._self_time[name]
        return result

    def print_report(self, unit='auto', file=sys.stdout, *, details=False):
        """Prints a table of the time spent in each link class.

        Columns: link name, elapsed time (nested calls included) and number
        of calls, laid out as Chainer lays them out; with ``details``, also
        the self time.

        Args:
            unit (str): The time unit, as the function hook's
                :meth:`~chainerlite.function_hooks.TimerHook.print_report`
                takes it (``'ms'``, ``'auto'``, ``'auto_foreach'``, ...).
            file: Text stream the table is written to.
            details (bool): Add the column of the self time (not in
                Chainer).

        """
        summary = self.summary()
        units = _function_timer.row_units(
            unit, [r['elapsed_time'] for r in summary.values()]
        )
        rows = [('LinkName', 'ElapsedTime', 'Occurrence') + ('SelfTime',) * details]
        for (name, record), (row_unit, factor) in zip(summary.items(), units):
            times = [record['elapsed_time']] + [record['self_time']] * details
            row = [name] + ['{:.2f}{}'.format(t * factor, row_unit) for t in times]
            row.insert(2, str(record['occurrence']))
            rows.append(tuple(row))
        _report.write_table(rows, file)
