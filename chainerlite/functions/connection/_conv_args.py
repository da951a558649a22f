"""Checks of the window arguments of convolutions and poolings.

A stride or a dilation of zero would make every output position (or every
filter tap) read the same pixel, and a negative one would index backwards;
neither is an error NumPy reports clearly, so the functions and links that
take these arguments check them first.
"""
import operator

_BOUNDS = {1: 'a positive int', 0: 'a non-negative int'}


def _as_int(value):
    try:
        return operator.index(value)
    except TypeError:
        return None


def int_pair(value, name, where, minimum=1):
    """Returns an int or a pair of ints as a checked pair of ints.

    Args:
        value (int or pair of ints): The argument; ``k`` means ``(k, k)``.
        name (str): Name of the argument, for the message (``'stride'``).
        where (str): Function or link that takes it, for the message.
        minimum (int): ``1`` (stride, dilation, window size) or ``0``
            (padding): the smallest value allowed.

    Returns:
        tuple of int: The pair.

    Raises:
        ValueError: If ``value`` is not an int or a pair of ints, or holds
            one below ``minimum``.
    """
    try:
        items = [_as_int(v) for v in value] if len(value) == 2 else [None]
    except TypeError:  # not a sequence: one value for both axes
        items = [_as_int(value)] * 2
    if any(v is None or v < minimum for v in items):
        raise ValueError(
            '{}: {} must be {} or a pair of them, but {!r} is given'.format(
                where, name, _BOUNDS[minimum], value))
    return tuple(items)


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
        ValueError: If ``value`` is not a positive int.
    """
    try:
        checked = int(value)
    except (TypeError, ValueError):
        checked = None
    if checked is None or checked != value or checked < 1:
        raise ValueError('{}: {} must be a positive int, but {!r} is '
                         'given'.format(where, name, value))
    return checked
