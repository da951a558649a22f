"""Checking loaded values before an object takes them.

A snapshot is untrusted: a negative epoch or iteration count, a position
past the end of the dataset, an order that is not one, would be loaded and
trained on silently. An object's ``serialize`` reads such a value with
:func:`peek`, which gives what loading would assign without assigning
anything, and checks it before it loads for real.

With :class:`~chainerlite.serializers.NpzDeserializer` (and the HDF5 one),
whose :meth:`load` first walks the object to check every value, the peeked
values are those of the file in that checking walk too, so that a bad
value stops the load before anything at all is assigned.
"""

import json
import math
import numbers

import numpy

from chainerlite import serializer as serializer_module


def loading(serializer):
    """Whether ``serializer`` loads (is a Deserializer)."""
    return isinstance(serializer, serializer_module.Deserializer)


def peek(serializer, key, value):
    """Returns what loading ``key`` into ``value`` would give, assigning
    nothing (an array ``value`` is left as it is).

    Raises:
        KeyError: If the key is missing and the deserializer is strict.

    """
    method = getattr(serializer, '_peek', None)
    if method is not None:
        return method(key, value)
    if isinstance(value, numpy.ndarray):
        value = value.copy()
    return serializer(key, value)


def full_key(serializer, key):
    """The key as the file names it (with the deserializer's prefix)."""
    return getattr(serializer, 'path', '') + key.lstrip('/')


def error(owner, serializer, key, what, got):
    """The ValueError of a loaded value that makes no sense."""
    return ValueError(
        '{}: the value of key {!r} must be {}, but the file has {!r}; '
        'nothing was loaded'.format(owner, full_key(serializer, key), what, got)
    )


def is_integer(value):
    """Whether ``value`` is an integer (Python's or NumPy's, not a bool)."""
    return isinstance(value, (numbers.Integral, numpy.integer)) and not isinstance(
        value, (bool, numpy.bool_)
    )


def load_count(serializer, key, value, owner, minimum=0):
    """``serializer(key, value)``, refusing a loaded value that is not an
    integer of at least ``minimum`` (before anything is assigned)."""
    if loading(serializer):
        loaded = peek(serializer, key, value)
        if not is_integer(loaded) or loaded < minimum:
            raise error(
                owner, serializer, key, 'an integer >= {}'.format(minimum), loaded
            )
    return serializer(key, value)


def load_finite(serializer, key, value, owner):
    """``serializer(key, value)``, refusing a loaded number that is NaN or
    infinite (``None`` passes)."""
    if loading(serializer):
        loaded = peek(serializer, key, value)
        if loaded is not None and not math.isfinite(float(numpy.asarray(loaded))):
            raise error(owner, serializer, key, 'a finite number', loaded)
    return serializer(key, value)


def load_json(serializer, key, text, owner, kind):
    """Loads the JSON text stored under ``key`` and returns the decoded
    value, which must be a ``kind`` (``list`` or ``dict``)."""
    if not loading(serializer):
        serializer(key, text)
        return json.loads(text)
    loaded = peek(serializer, key, text)
    try:
        value = json.loads(loaded)
    except (TypeError, ValueError):
        value = None
    if not isinstance(value, kind):
        raise error(
            owner, serializer, key, 'the JSON text of a ' + kind.__name__, loaded
        )
    return json.loads(serializer(key, text))
