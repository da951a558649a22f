"""Checks of the window arguments of convolutions and poolings.

A stride or a dilation of zero would make every output position (or every
filter tap) read the same pixel, and a negative one would index backwards;
neither is an error NumPy reports clearly, so the functions and links that
take these arguments check them first. A value above ``2 ** 31 - 1`` is
refused too: the compiled kernels take C ints, and Chainer fails there
anyway, as it pads the images to at least that length (a ValueError or
MemoryError from NumPy).
"""

import operator

from chainerlite.utils import _chainer_errors

_BOUNDS = {1: 'a positive int', 0: 'a non-negative int'}
#: The largest window size, stride, padding or dilation.
MAXIMUM = 2**31 - 1


def _as_int(value):
    try:
        return operator.index(value)
    except TypeError:
        return None


def int_tuple(value, n, name, where, minimum=1):
    """Returns an int or a tuple of ``n`` ints as a checked tuple of ints.

    Args:
        value (int or sequence of ints): The argument; ``k`` means
            ``(k,) * n``.
        n (int): Number of values (of spatial axes).
        name (str): Name of the argument, for the message (``'stride'``).
        where (str): Function or link that takes it, for the message.
        minimum (int): ``1`` (stride, dilation, window size) or ``0``
            (padding): the smallest value allowed.

    Returns:
        tuple of int: The ``n`` values.

    Raises:
        ValueError: If ``value`` is not an int or a sequence of ``n`` ints
            (``_chainer_errors.LengthError`` for a sequence of another
            length, a ``TypeError`` too for what is not an int), or holds
            one below ``minimum`` (an ``AssertionError`` too, but for the
            zero and negative strides and zero windows that have errors of
            their own) or above :data:`MAXIMUM`.
    """
    try:
        items = [_as_int(v) for v in value] if len(value) == n else [None]
        error = ValueError if len(value) == n else _chainer_errors.LengthError
    except TypeError:  # not a sequence: one value for every axis
        items = [_as_int(value)] * n
        error = ValueError
    if error is ValueError and None in items:
        # not an int: Chainer 7.8.1 fails on it with a TypeError
        error = _chainer_errors.TypedValueError
    elif error is ValueError and 0 in items and name == 'ksize':
        # Chainer 7.8.1 divides by a zero filter size
        error = _chainer_errors.ZeroError
    elif error is ValueError and 0 in items and name == 'stride':
        error = _chainer_errors.ZeroStrideError
    elif error is ValueError and name == 'stride' and min(items, default=0) < 0:
        error = _chainer_errors.NegativeStrideError
    elif error is ValueError:
        # a negative padding, window size or dilation: Chainer 7.8.1 fails
        # asserting that the output has a positive size, or NumPy refuses
        # the negative padding (ValueError)
        error = _chainer_errors.AssertedValueError
    if any(v is None or v < minimum for v in items):
        raise error(
            '{}: {} must be {} or {} of them, but {!r} is given'.format(
                where,
                name,
                _BOUNDS[minimum],
                'a pair' if n == 2 else 'a tuple of {}'.format(n),
                value,
            )
        )
    if items and max(items) > MAXIMUM:
        raise ValueError(
            '{}: {} must be at most {}, but {!r} is given'.format(
                where, name, MAXIMUM, value
            )
        )
    return tuple(items)


def check_length(value, n, name, where):
    """Raises ``_chainer_errors.LengthError`` if ``value`` is a sequence
    of other than ``n`` values (an int, or anything else, passes: its
    values are for :func:`int_tuple`). Chainer 7.8.1 asserts the length
    where it makes its node, before the type check of the inputs, and
    fails on the values only in its forward."""
    try:
        length = len(value)
    except TypeError:
        return
    if length != n:
        raise _chainer_errors.LengthError(
            '{}: {} must be an int or a sequence of {} of them, but {!r} is '
            'given'.format(where, name, n, value)
        )


def int_pair(value, name, where, minimum=1):
    """:func:`int_tuple` of two values."""
    return int_tuple(value, 2, name, where, minimum)


def positive_int(value, name, where):
    """Returns ``value`` as an int after checking that it is positive.

    Args:
        value (int): The argument (such as ``groups``); a float with an
            integral value is accepted, as Chainer's links accept it.
        name (str): Name of the argument, for the message.
        where (str): Function or link that takes it, for the message.

    Returns:
        int: The value.

    Raises:
        ValueError: If ``value`` is not a positive int
            (``_chainer_errors.ZeroError`` for zero).
    """
    try:
        checked = int(value)
    except (TypeError, ValueError):
        checked = None
    if checked is None or checked != value or checked < 1:
        raise (_chainer_errors.ZeroError if checked == 0 == value else ValueError)(
            '{}: {} must be a positive int, but {!r} is given'.format(
                where, name, value
            )
        )
    return checked
