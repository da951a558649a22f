"""Outcomes of one call on one library, and their comparison.

An outcome is backend-neutral: Chainer's and chainerlite's ``Variable``
objects become ``('variable', array)``, exceptions become the names of the
classes of their MRO, and warnings the names of their categories. Only
NumPy is imported here.

The exception rule: chainerlite's exception agrees with Chainer's where it
is an instance of Chainer's class. A builtin or NumPy class (``ValueError``,
``IndexError``, ``numpy.AxisError``...) is the same class in both libraries
and is named with its module, so an exception agrees only by being an
instance of that very class (e.g. chainerlite's ``InvalidType`` family:
``type_check.InvalidType`` subclasses that are also ``IndexError``, where
Chainer fails inside its own code on the same input). A class of either
library is named without its module, so ``chainerlite...InvalidType``
stands for ``chainer...InvalidType``. The message is not compared.
"""

import dataclasses
import warnings

import numpy

# rtol, atol per floating dtype (the lower precision of the two sides rules).
TOLERANCE = {'float16': (1e-2, 1e-2), 'float32': (1e-4, 1e-5), 'float64': (1e-7, 1e-9)}
# Warnings that depend on how NumPy computes, not on the API: not compared.
_IGNORED_WARNINGS = (
    'RuntimeWarning',
    'DeprecationWarning',
    'PendingDeprecationWarning',
)


@dataclasses.dataclass
class Outcome:
    value: object = None  # plain form of the result (see plain())
    error: tuple = ()  # MRO class names of the exception raised, if any
    message: str = ''
    warned: frozenset = frozenset()  # categories of the API's warnings

    @property
    def raised(self):
        return bool(self.error)


def run(thunk):
    """Calls ``thunk()`` and records its result, exception and warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        try:
            value = plain(thunk())
            error, message = (), ''
        except Exception as e:  # noqa: BLE001 - any exception is an outcome
            value = None
            error = tuple(_class_name(c) for c in type(e).__mro__)
            message = f'{type(e).__name__}: {e}'[:300]
    warned = frozenset(
        w.category.__name__
        for w in caught
        if w.category.__name__ not in _IGNORED_WARNINGS
    )
    return Outcome(value, error, message, warned)


def _class_name(cls):
    """A builtin or NumPy class with its module, a library's class by name."""
    if cls.__module__ == 'builtins' or cls.__module__.split('.')[0] == 'numpy':
        return f'{cls.__module__}.{cls.__qualname__}'
    return cls.__name__


def plain(obj):
    """The backend-neutral form of a result, compared by ``differences``."""
    if hasattr(obj, 'array') and hasattr(obj, 'creator'):  # a Variable
        return ('variable', plain(obj.array))
    if isinstance(obj, numpy.ndarray):
        return obj
    if isinstance(obj, (numpy.generic, bool, int, float, complex)):
        return (
            'scalar',
            type(obj).__name__ if isinstance(obj, bool) else 'number',
            obj,
        )
    if isinstance(obj, (tuple, list)):
        return (type(obj).__name__, [plain(x) for x in obj])
    if isinstance(obj, dict):
        return ('dict', {k: plain(v) for k, v in sorted(obj.items(), key=str)})
    if obj is None or isinstance(obj, str):
        return obj
    return ('object', type(obj).__name__)


def differences(expected, actual, path='out'):
    """What differs between Chainer's ``expected`` and chainerlite's ``actual``.

    Returns a list of short descriptions, empty when they agree.
    """
    if isinstance(expected, Outcome):
        return _outcome_differences(expected, actual, path)
    if isinstance(expected, numpy.ndarray) or isinstance(actual, numpy.ndarray):
        return _array_differences(expected, actual, path)
    if type(expected) is not type(actual):
        return [f'{path}: {_kind(expected)} vs {_kind(actual)}']
    if isinstance(expected, tuple) and expected and expected[0] == 'scalar':
        if expected[1] != actual[1]:
            return [f'{path}: {expected[1]} vs {actual[1]}']
        return _array_differences(
            numpy.asarray(expected[2]), numpy.asarray(actual[2]), path
        )
    if isinstance(expected, tuple) and expected and expected[0] in ('list', 'tuple'):
        if expected[0] != actual[0] or len(expected[1]) != len(actual[1]):
            return [f'{path}: {_kind(expected)} vs {_kind(actual)}']
        if expected[1] and all(_is_scalar(x) for x in expected[1] + actual[1]):
            ours = [x[2] for x in expected[1]]
            theirs = [x[2] for x in actual[1]]
            return [] if ours == theirs else [f'{path}: {ours} vs {theirs}']
        out = []
        for i, (e, a) in enumerate(zip(expected[1], actual[1])):
            out += differences(e, a, f'{path}[{i}]')
        return out
    if isinstance(expected, tuple) and expected and expected[0] == 'dict':
        if list(expected[1]) != list(actual[1]):
            return [f'{path}: keys {list(expected[1])} vs {list(actual[1])}']
        out = []
        for k in expected[1]:
            out += differences(expected[1][k], actual[1][k], f'{path}[{k!r}]')
        return out
    if (
        isinstance(expected, tuple)
        and len(expected) == 2
        and isinstance(expected[0], str)
    ):
        if expected[0] != actual[0]:
            return [f'{path}: {expected[0]} vs {actual[0]}']
        return differences(expected[1], actual[1], path)
    return [] if expected == actual else [f'{path}: {expected!r} vs {actual!r}']


def _outcome_differences(expected, actual, path):
    if expected.raised or actual.raised:
        if not actual.raised:
            return [f'{path}: Chainer raised {expected.message}; chainerlite did not']
        if not expected.raised:
            return [f'{path}: chainerlite raised {actual.message}; Chainer did not']
        if expected.error[0] not in actual.error:
            return [f'{path}: raised {expected.error[0]} vs {actual.message}']
        return []
    out = differences(expected.value, actual.value, path)
    if expected.warned != actual.warned:
        out.append(
            f'{path}: warnings {sorted(expected.warned)} vs {sorted(actual.warned)}'
        )
    return out


def _array_differences(expected, actual, path):
    if not (isinstance(expected, numpy.ndarray) and isinstance(actual, numpy.ndarray)):
        return [f'{path}: {_kind(expected)} vs {_kind(actual)}']
    if expected.dtype != actual.dtype:
        return [f'{path}: dtype {expected.dtype} vs {actual.dtype}']
    if expected.shape != actual.shape:
        return [f'{path}: shape {expected.shape} vs {actual.shape}']
    if not close(expected, actual):
        how_far = (
            f'{_times_tolerance(expected, actual)} x tolerance'
            if expected.dtype.kind in 'fc'
            else 'compared exactly'
        )
        worst = _max_abs(expected, actual)
        return [f'{path}: values differ (max abs {worst}, {how_far})']
    return []


def close(expected, actual):
    """Equal values within the dtype's tolerance; NaN equals NaN, infinities match."""
    if expected.dtype.kind not in 'fc':
        return bool(numpy.array_equal(expected, actual))
    rtol, atol = _tolerance(expected)
    e = expected.astype(numpy.float64)
    a = actual.astype(numpy.float64)
    return bool(numpy.allclose(e, a, rtol=rtol, atol=atol, equal_nan=True))


def _tolerance(expected):
    """``(rtol, atol)`` of ``close`` for Chainer's ``expected`` array."""
    rtol, atol = TOLERANCE.get(expected.dtype.name, TOLERANCE['float16'])
    return rtol, atol * max(1.0, _scale(expected.astype(numpy.float64)))


def _times_tolerance(expected, actual):
    """How many times ``close``'s allowance the worst finite entry is off
    (``'inf'`` where only NaN or infinities are misplaced), for the kinds of
    difference the report counts."""
    rtol, atol = _tolerance(expected)
    e = expected.astype(numpy.float64)
    a = actual.astype(numpy.float64)
    with numpy.errstate(all='ignore'):
        ratio = numpy.abs(e - a) / (atol + rtol * numpy.abs(a))
    ratio = ratio[numpy.isfinite(ratio)]
    return f'{ratio.max():.3g}' if ratio.size and ratio.max() > 1 else 'inf'


def _scale(values):
    finite = numpy.abs(values[numpy.isfinite(values)])
    return float(finite.max()) if finite.size else 1.0


def _max_abs(expected, actual):
    with numpy.errstate(all='ignore'):
        d = numpy.abs(expected.astype(numpy.float64) - actual.astype(numpy.float64))
    d = d[numpy.isfinite(d)]
    return f'{d.max():.3g}' if d.size else 'non-finite'


def _is_scalar(obj):
    return isinstance(obj, tuple) and len(obj) == 3 and obj[0] == 'scalar'


def _kind(obj):
    if isinstance(obj, tuple) and obj and obj[0] in ('list', 'tuple'):
        return f'{obj[0]} of {len(obj[1])}'
    if isinstance(obj, numpy.ndarray):
        return f'ndarray {obj.dtype}{obj.shape}'
    if isinstance(obj, tuple) and obj and isinstance(obj[0], str):
        return obj[0] if obj[0] != 'object' else f'object {obj[1]}'
    return type(obj).__name__
