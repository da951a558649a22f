"""What a probe's result is reduced to, so that both sides can compare it."""

import numpy


def summary(value):
    """A JSON-able digest of ``value``: arrays by shape, dtype and rounded
    sums, floats rounded, containers element by element."""
    if hasattr(value, 'array') and hasattr(value, 'creator'):  # a Variable
        value = value.array
    if isinstance(value, numpy.ndarray):
        if value.dtype.kind not in 'biuf':
            return ['array', list(value.shape), str(value.dtype)]
        data = value.astype(numpy.float64)
        finite = data[numpy.isfinite(data)]
        return [
            'array',
            list(value.shape),
            str(value.dtype),
            round(float(finite.sum()), 4),
            int(numpy.isnan(data).sum()),
            int(numpy.isinf(data).sum()),
        ]
    if isinstance(value, (numpy.generic, float)):
        return round(float(value), 6)
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    if isinstance(value, dict):
        return {str(k): summary(v) for k, v in sorted(value.items(), key=str)}
    if isinstance(value, (list, tuple)):
        return [summary(v) for v in value]
    return ['object', type(value).__name__]


def attempt(fn):
    """``fn()``'s digest as ``['ok', summary]``, or the exception it raised
    as ``['raise', name, mro]`` (compared by type, as a probe's own)."""
    try:
        return ['ok', summary(fn())]
    except Exception as e:  # noqa: BLE001 - the exception is the result
        return ['raise', type(e).__name__, [c.__name__ for c in type(e).__mro__]]


def probes(namespace, module_name):
    """The probe functions a module defines: its public functions."""
    return {
        k: v
        for k, v in namespace.items()
        if callable(v)
        and not k.startswith('_')
        and getattr(v, '__module__', None) == module_name
    }
