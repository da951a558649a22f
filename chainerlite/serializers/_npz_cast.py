"""Checking a stored array against the value it is loaded into.

:func:`checked_value` reads one stored array and returns what the
deserializer assigns: ``None`` for a stored ``None``; the array itself for
a ``None`` target; an array of the target's shape and dtype for an array
target; a scalar of the target's type for a scalar target. The shape and
the kind of dtype are checked from the header before the data is read, and
a value that the target's dtype cannot hold is an error instead of an
``inf`` or a wrapped integer.
"""

import math

import numpy

from chainerlite.backends import cuda
from chainerlite.utils import _chainer_errors


def checked_value(source, key, value):
    """Reads the array stored under ``key`` and checks it against ``value``.

    Args:
        source: The source of the arrays (see ``_npz_reader``; ``label``
            names the deserializer in error messages).
        key (str): The full key of the array.
        value: The current value: an array, a scalar or ``None``.

    Returns:
        The value to assign (see the module docstring).

    Raises:
        ValueError: If the shapes differ, if the stored data is invalid, or
            if a stored value is out of the range of the target's dtype.
        TypeError: If the stored dtype cannot be cast to the target's
            (NumPy's ``same_kind`` rule for arrays; a safe cast for NumPy
            scalars, any integer for a Python ``int``).

    """
    label = source.label  # the deserializer, as error messages name it
    header = source.header(key)
    if header is None:
        return None
    shape, dtype = header
    if value is None:
        return source.read(key)
    if isinstance(value, (numpy.ndarray, cuda.ndarray)):
        if shape != value.shape:
            raise ValueError(
                '{}: shape mismatch for key {!r}: the file has '
                '{} but the target has {}'.format(label, key, shape, value.shape)
            )
        if not numpy.can_cast(dtype, value.dtype, 'same_kind'):
            raise TypeError(
                '{}: cannot load {} data of key {!r} into an array of {}'.format(
                    label, dtype, key, value.dtype
                )
            )
        return _cast_array(label, key, source.read(key), value.dtype)
    if math.prod(shape) != 1:
        # a TypeError too, as int() or float() of the array raises in Chainer
        raise _chainer_errors.TypedValueError(
            '{}: key {!r} holds an array of shape {} but the '
            'target is a single {}'.format(label, key, shape, type(value).__name__)
        )
    return _cast_scalar(label, key, source.read(key).reshape(()), value)


def _cast_array(label, key, data, dtype):
    if data.dtype == dtype:
        return data
    with numpy.errstate(over='ignore', invalid='ignore'):
        cast = data.astype(dtype)
    if dtype.kind in 'fc':
        overflow = (~numpy.isfinite(cast) & numpy.isfinite(data)).any()
    elif dtype.kind in 'iu' and data.size:
        info = numpy.iinfo(dtype)
        overflow = not info.min <= int(data.min()) <= int(data.max()) <= info.max
    else:
        overflow = False
    if overflow:
        raise ValueError(
            '{}: values of key {!r} are out of the range of {}'.format(
                label, key, dtype
            )
        )
    return cast


def _cast_scalar(label, key, data, value):
    value_type = type(value)
    kind = data.dtype.type
    # int() keeps every bit of a NumPy integer; other casts (to bool too,
    # as in Chainer) must be safe.
    reason = 'the cast is not safe'
    if (
        not issubclass(kind, numpy.number)
        or (issubclass(kind, numpy.integer) and value_type is int)
        or numpy.can_cast(data.dtype, value_type)
    ):
        try:
            return value_type(data)
        except (TypeError, ValueError) as e:
            reason = str(e)
    # a ValueError too, as Chainer's int() of a stored string raises
    raise _chainer_errors.TypedValueError(
        '{}: cannot load {} data of key {!r} into a value of type {} ({})'.format(
            label, data.dtype, key, value_type.__name__, reason
        )
    )
