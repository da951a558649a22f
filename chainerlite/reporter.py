"""Reporting of observed values (``chainerlite.reporter``), as in Chainer.

Code that computes a value worth logging (a loss, an accuracy) calls
:func:`report`; whoever wants the values makes a :class:`Reporter` current
with ``with reporter:`` (or :meth:`Reporter.scope`) and reads its
``observation`` dict afterwards. With no current reporter, :func:`report`
does nothing. The stack of current reporters is thread-local.
"""

from __future__ import annotations

import collections
import contextlib
import json
import threading
import typing
import warnings

import numpy

from chainerlite import backend
from chainerlite import configuration
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
    def scope(self, observation: dict[str, typing.Any]) -> typing.Iterator[None]:
        """Makes this reporter current and collects into ``observation``."""
        old = self.observation
        self.observation = observation
        with self:
            try:
                yield
            finally:
                self.observation = old

    def add_observer(self, name: str, observer: typing.Any) -> None:
        """Registers ``observer`` (usually a link) under ``name``."""
        self._observer_names[id(observer)] = name

    def add_observers(
        self, prefix: str, observers: typing.Iterable[tuple[str, typing.Any]]
    ) -> None:
        """Registers ``(name, observer)`` pairs under ``prefix + name``."""
        for name, observer in observers:
            self._observer_names[id(observer)] = prefix + name

    def report(
        self, values: typing.Mapping[str, typing.Any], observer: typing.Any = None
    ) -> None:
        """Stores ``values`` (a dict); keys get the observer's name prefix.

        Unless ``config.keep_graph_on_report`` is set, a Variable is stored
        as a new Variable holding the same array, cut from the graph (so
        that the observation does not keep the graph alive).
        """
        if observer is not None:
            name = self._observer_names.get(id(observer))
            if name is None:
                raise KeyError('the observer is not registered to the reporter')
            values = {'%s/%s' % (name, key): value for key, value in values.items()}
        keep_graph = configuration.config.keep_graph_on_report
        for key, value in values.items():
            if not keep_graph and isinstance(value, variable.Variable):
                value = variable.Variable(value.array)
            self.observation[key] = value


def get_current_reporter() -> Reporter:
    """Returns the current reporter of this thread.

    Raises:
        IndexError: If no reporter is current in this thread (as in
            Chainer): outside ``with reporter:`` and ``reporter.scope``.
    """
    current = _current()
    if current is None:
        raise IndexError(
            'get_current_reporter: no reporter is current in this thread '
            '(use it inside `with reporter:` or `reporter.scope(...)`)'
        )
    return current


def _current():
    # the current reporter of this thread, None if there is none
    stack = _reporters()
    return stack[-1] if stack else None


def report(
    values: typing.Mapping[str, typing.Any], observer: typing.Any = None
) -> None:
    """Reports ``values`` to the current reporter, if any.

    Args:
        values (dict): Names and values (scalars, arrays or Variables).
        observer: The object the values belong to; its registered name is
            prefixed to the keys.
    """
    current = _current()
    if current is not None:
        current.report(values, observer)


@contextlib.contextmanager
def report_scope(observation: dict[str, typing.Any]) -> typing.Iterator[None]:
    """Collects what is reported in the block into ``observation``.

    Raises:
        IndexError: If no reporter is current in this thread.
    """
    with get_current_reporter().scope(observation):
        yield


def _is_scalar(value):
    # (a str is a scalar to NumPy: DictSummary.add then fails to sum it,
    # with Chainer's TypeError)
    return numpy.isscalar(value) or getattr(value, 'ndim', -1) == 0


class Summary(object):
    """Running weighted mean and standard deviation of a scalar series.

    Values (Python or NumPy scalars, 0-dimensional NumPy or CuPy arrays, or
    Variables) are accumulated with their own arithmetic, so that values on
    a GPU stay there until they are read.
    """

    def __init__(self):
        self._x = 0.0
        self._x2 = 0.0
        self._n = 0  # an int, as in Chainer (snapshots hold its dtype)

    def add(self, value: typing.Any, weight: typing.Any = 1) -> None:
        """Adds ``value`` with ``weight`` (a scalar, array or Variable)."""
        self._x = self._x + weight * value
        self._x2 = self._x2 + weight * value * value
        self._n = self._n + weight

    def compute_mean(self):
        """Returns the weighted mean of the added values."""
        return self._x / self._n

    def make_statistics(self):
        """Returns ``(mean, std)`` of the added values."""
        mean = self._x / self._n
        var = self._x2 / self._n - mean * mean
        if not isinstance(var, variable.Variable):
            # Rounding may leave a tiny negative variance.
            var = backend.get_array_module(var).maximum(var, 0)
        return mean, var**0.5

    def serialize(self, serializer):
        """Saves or loads the running sums."""
        try:
            self._x = serializer('_x', self._x)
            self._x2 = serializer('_x2', self._x2)
            self._n = serializer('_n', self._n)
        except KeyError:
            warnings.warn(
                'Summary: the saved state holds no statistics (it was '
                'written by an older version); they start from zero'
            )


class DictSummary(object):
    """A :class:`Summary` per key of the added dicts."""

    def __init__(self):
        self._summaries = collections.defaultdict(Summary)

    def add(self, d: typing.Mapping[str, typing.Any]) -> None:
        """Adds each scalar value of ``d`` to the summary of its key.

        A value may be a ``(value, weight)`` pair. Values that are not
        scalars (nor 0-dimensional arrays or Variables) are skipped.

        Raises:
            ValueError: If a weight is not a scalar.
            TypeError: If a value is a string (a NumPy scalar that cannot
                be summed), as in Chainer.
        """
        for key, value in d.items():
            weight = 1
            if isinstance(value, tuple):
                value, weight = value
                if isinstance(weight, variable.Variable):
                    weight = weight.array
                if not _is_scalar(weight):
                    raise ValueError(
                        'DictSummary.add: the weight given to {!r} is not a '
                        'scalar'.format(key)
                    )
            if isinstance(value, variable.Variable):
                value = value.array
            if _is_scalar(value):
                self._summaries[key].add(value, weight)

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

    def serialize(self, serializer):
        """Saves or loads the summaries.

        The keys (which may hold ``/``) are stored as one JSON list and the
        summaries by their position in it; loading replaces the keys.
        """
        try:
            names = json.loads(serializer('_names', json.dumps(list(self._summaries))))
        except KeyError:
            warnings.warn(
                'DictSummary: the saved state holds no statistics (it was '
                'written by an older version); they start from zero'
            )
            self._summaries.clear()
            return
        summaries = collections.defaultdict(Summary)
        for i, name in enumerate(names):
            summary = self._summaries.get(name) or Summary()
            summary.serialize(serializer['_summaries'][str(i)])
            summaries[name] = summary
        self._summaries = summaries
