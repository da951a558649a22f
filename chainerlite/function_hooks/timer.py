"""Function hook that measures the time spent in each function."""

import collections
import sys

from chainerlite import function_hook
from chainerlite._core import timer as _timer
from chainerlite.backends import cuda
from chainerlite.utils import _chainer_errors

# Chainer's TimerHook.table: the factor from seconds to each unit.
UNIT_TABLE = {'sec': 1, 'ms': 10**3, 'us': 10**6, 'ns': 10**9}
_UNITS = tuple((unit, float(factor)) for unit, factor in UNIT_TABLE.items())
_timer._set_cupy(cuda.cupy if cuda._cupy_imported else None)


def _choose_unit(seconds):
    # The largest unit in which the value is at least one (ns at the least).
    for unit, factor in _UNITS[:-1]:
        if seconds * factor >= 1:
            return unit, factor
    return _UNITS[-1]


def row_units(unit, elapsed_times):
    """Returns the ``(unit, factor)`` of each row of a time report.

    Args:
        unit (str): ``'sec'``, ``'ms'``, ``'us'``, ``'ns'``, ``'auto'`` (the
            unit of the largest time, for every row) or ``'auto_foreach'``
            (the unit of each row's own time).
        elapsed_times (list of float): The time of each row, in seconds.

    Raises:
        ValueError: If ``unit`` is none of the above (also a KeyError, as
            Chainer looks the unit up in its table).

    """
    if unit == 'auto_foreach':
        return [_choose_unit(t) for t in elapsed_times]
    if unit == 'auto':
        chosen = _choose_unit(max(elapsed_times, default=0.0))
    elif unit in dict(_UNITS):
        chosen = unit, dict(_UNITS)[unit]
    else:
        raise _chainer_errors.KeyValueError(
            'unit must be one of {}, \'auto\' or \'auto_foreach\'; got {!r}'.format(
                tuple(dict(_UNITS)), unit
            )
        )
    return [chosen] * len(elapsed_times)


class TimerHook(function_hook.FunctionHook, _timer.TimerRecorder):
    """Function hook that measures the elapsed time of functions.

    Every forward and backward computation of a function node is timed: on
    the CPU with the monotonic clock of the system (``clock_gettime``;
    ``QueryPerformanceCounter`` on Windows), on the GPU with CUDA events that
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
    table = dict(UNIT_TABLE)

    # The callbacks and the bookkeeping are compiled (TimerRecorder in
    # chainerlite._core.timer): they run around every op.
    forward_preprocess = _timer.forward_preprocess
    forward_postprocess = _timer.forward_postprocess
    backward_preprocess = _timer.backward_preprocess
    backward_postprocess = _timer.backward_postprocess

    def added(self, function):
        if function is None:
            # calls that raised at top level earlier stay marked as running
            # until then; a new registration starts from a clean stack
            self.reset_thread()

    def deleted(self, function):
        if function is None:
            self.reset_thread()

    def _resolve(self):
        # Reads the CUDA events of finished GPU calls (children finish, and
        # so are listed, before their parents).
        calls, self.gpu_calls = self.gpu_calls, []
        if not calls:
            return
        calls[-1][3].synchronize()
        nested = collections.defaultdict(float)
        for name, phase, start, stop, call_id, parent in calls:
            elapsed = cuda.cupy.cuda.get_elapsed_time(start, stop) / 1000
            self.record(name, phase, elapsed, elapsed - nested[call_id])
            if parent is None:
                self.outer_time += elapsed
            else:
                nested[parent] += elapsed

    # -- results -----------------------------------------------------------
    @property
    def call_history(self):
        self._resolve()
        return self.history

    def total_time(self):
        """Returns the total elapsed time of the outermost calls.

        Returns:
            float: Seconds spent in measured calls; nested calls are part
            of their enclosing call's time and are not added again.
        """
        self._resolve()
        return self.outer_time

    def summary(self):
        """Returns the time and the number of calls per function.

        Returns:
            collections.OrderedDict: Maps each function name, in order of
            first appearance, to a dict with ``'elapsed_time'`` (total
            seconds of its calls, nested calls included), ``'occurrence'``
            (number of calls), ``'self_time'`` (seconds without the calls
            nested in it), and ``'forward_time'`` / ``'backward_time'`` /
            ``'recompute_time'`` (elapsed time split by direction; the
            forward calls that ``F.forget`` runs again in backward count
            as recomputation, not forward).
        """
        result = collections.OrderedDict()
        for name, elapsed in self.call_history:
            record = result.get(name)
            if record is None:
                stats = self.stats.get(name)
                record = result[name] = {
                    'elapsed_time': 0.0,
                    'occurrence': 0,
                    'self_time': None if stats is None else stats.self_time,
                    'forward_time': None if stats is None else stats.forward_time,
                    'backward_time': None if stats is None else stats.backward_time,
                    'recompute_time': None if stats is None else stats.recompute_time,
                }
            record['elapsed_time'] += elapsed
            record['occurrence'] += 1
        return result

    def print_report(self, unit='auto', file=sys.stdout, *, details=False):
        """Prints a table of the time spent in each function.

        Columns: function name, elapsed time (nested calls included) and
        number of calls, laid out as Chainer lays them out; with
        ``details``, also the self time, forward, backward and
        recomputation time (forward calls that ``F.forget`` runs again in
        backward).

        Args:
            unit (str): Unit of the times: ``'sec'``, ``'ms'``, ``'us'``,
                ``'ns'``, ``'auto'`` (one unit chosen from the largest time)
                or ``'auto_foreach'`` (a unit chosen for each row).
            file: Text stream the table is written to.
            details (bool): Add the columns of the self time and of the
                time per direction (not in Chainer).
        """
        summary = self.summary()
        units = row_units(unit, [r['elapsed_time'] for r in summary.values()])
        header = ('FunctionName', 'ElapsedTime', 'Occurrence')
        if details:
            header += ('SelfTime', 'Forward', 'Backward', 'Recompute')
        rows = [header]
        for (name, record), (row_unit, row_factor) in zip(summary.items(), units):

            def fmt(seconds):
                if seconds is None:
                    return '-'
                return '{:.2f}{}'.format(seconds * row_factor, row_unit)

            row = (name, fmt(record['elapsed_time']), str(record['occurrence']))
            if details:
                row += tuple(
                    fmt(record[key])
                    for key in (
                        'self_time',
                        'forward_time',
                        'backward_time',
                        'recompute_time',
                    )
                )
            rows.append(row)
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        for row in rows:
            file.write('  '.join(cell.rjust(width) for cell, width in zip(row, widths)))
            file.write('\n')
        file.flush()
