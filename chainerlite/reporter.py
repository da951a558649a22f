"""Reporting of observed values (``chainerlite.reporter``), as in Chainer.

Code that computes a value worth logging (a loss, an accuracy) calls
:func:`report`; whoever wants the values makes a :class:`Reporter` current
with ``with reporter:`` (or :meth:`Reporter.scope`) and reads its
``observation`` dict afterwards. With no current reporter, :func:`report`
does nothing. The stack of current reporters is thread-local.
"""
import collections
import contextlib
import threading

import numpy

from chainerlite import backend
from chainerlite import variable

_local = threading.local()


def _reporters():
    stack = getattr(_local, 'reporters', None)
    if stack is None:
        stack = _local.reporters = []
    return stack


class Reporter(object):
    """Collects observed values under names qualified by their observer.

    Attributes:
        observation (dict): The values reported in the current scope.
    """

    def __init__(self):
        self._observer_names = {}
        self.observation = {}

    def __enter__(self):
        _reporters().append(self)
        return self

    def __exit__(self, *exc):
        _reporters().pop()
        return False

    @contextlib.contextmanager
    def scope(self, observation):
        """Makes this reporter current and collects into ``observation``."""
        old = self.observation
        self.observation = observation
        with self:
            try:
                yield
            finally:
                self.observation = old

    def add_observer(self, name, observer):
        """Registers ``observer`` (usually a link) under ``name``."""
        self._observer_names[id(observer)] = name

    def add_observers(self, prefix, observers):
        """Registers ``(name, observer)`` pairs under ``prefix + name``."""
        for name, observer in observers:
            self._observer_names[id(observer)] = prefix + name

    def report(self, values, observer=None):
        """Stores ``values`` (a dict); keys get the observer's name prefix.

        Variables are stored as their arrays (detached from the graph).
        """
        if observer is not None:
            name = self._observer_names.get(id(observer))
            if name is None:
                raise KeyError('the observer is not registered to the '
                               'reporter')
            values = {'%s/%s' % (name, key): value
                      for key, value in values.items()}
        for key, value in values.items():
            if isinstance(value, variable.Variable):
                value = value.array
            self.observation[key] = value


def get_current_reporter():
    """Returns the current reporter of this thread (None if there is none)."""
    stack = _reporters()
    return stack[-1] if stack else None


def report(values, observer=None):
    """Reports ``values`` to the current reporter, if any.

    Args:
        values (dict): Names and values (scalars, arrays or Variables).
        observer: The object the values belong to; its registered name is
            prefixed to the keys.
    """
    current = get_current_reporter()
    if current is not None:
        current.report(values, observer)


@contextlib.contextmanager
def report_scope(observation):
    """Collects what is reported in the block into ``observation``."""
    current = get_current_reporter()
    if current is None:
        raise RuntimeError('report_scope needs a current Reporter')
    with current.scope(observation):
        yield


class Summary(object):
    """Running mean and standard deviation of a scalar series."""

    def __init__(self):
        self._x = 0.0
        self._x2 = 0.0
        self._n = 0

    def add(self, value, weight=1):
        """Adds a value (scalar, 0-d array or Variable) with a weight."""
        if isinstance(value, variable.Variable):
            value = value.array
        value = float(backend.CpuDevice().send(numpy.asarray(value))
                      if not numpy.isscalar(value) else value)
        self._x += weight * value
        self._x2 += weight * value * value
        self._n += weight

    def compute_mean(self):
        """Returns the weighted mean of the added values."""
        return self._x / self._n

    def make_statistics(self):
        """Returns ``(mean, std)`` of the added values."""
        mean = self._x / self._n
        var = max(self._x2 / self._n - mean * mean, 0.0)
        return mean, var ** 0.5


class DictSummary(object):
    """A :class:`Summary` per key of the added dicts."""

    def __init__(self):
        self._summaries = collections.defaultdict(Summary)

    def add(self, d):
        """Adds each scalar value of ``d`` to the summary of its key."""
        for key, value in d.items():
            if isinstance(value, variable.Variable):
                value = value.array
            if numpy.isscalar(value) or getattr(value, 'ndim', None) == 0:
                self._summaries[key].add(value)

    def compute_mean(self):
        """Returns ``{key: mean}``."""
        return {k: s.compute_mean() for k, s in self._summaries.items()}

    def make_statistics(self):
        """Returns ``{key: mean, key + '.std': std}``."""
        stats = {}
        for key, summary in self._summaries.items():
            mean, std = summary.make_statistics()
            stats[key] = mean
            stats[key + '.std'] = std
        return stats
