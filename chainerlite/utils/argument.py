"""Keyword-argument checks for functions that take ``**kwargs``."""

import sys

#: Chainer's message for the removed ``train`` argument of the functions
#: and links that drew random numbers in training (dropout and its kin).
TRAIN_REMOVED = 'train argument is not supported anymore. Use chainer.using_config'


def check_unexpected_kwargs(kwargs, **unexpected):
    """Raises ValueError for arguments that are no longer supported.

    Args:
        kwargs (dict): The keyword arguments given.
        **unexpected: ``name=message``: the error message for each
            argument that must not be given.

    """
    for name, message in unexpected.items():
        if name in kwargs:
            raise ValueError(message)


def _raise_unexpected(kwargs, depth):
    caller = sys._getframe(depth + 1).f_code.co_name
    raise TypeError(
        '{}() got unexpected keyword argument(s) {}'.format(
            caller, ', '.join(repr(name) for name in sorted(kwargs))
        )
    )


def parse_kwargs(kwargs, *name_and_values, **unexpected):
    """Takes the known arguments out of ``kwargs``, with defaults.

    Args:
        kwargs (dict): The keyword arguments of the caller; the known ones
            are popped from it.
        *name_and_values: ``(name, default)`` of each known argument.
        **unexpected: ``name=message`` for arguments that raise ValueError
            with that message (removed features).

    Returns:
        tuple: The value of each known argument, in the order given.

    Raises:
        ValueError: If an argument named in ``unexpected`` is given.
        TypeError: If other unknown arguments are given; the message names
            the calling function and the arguments, as Python does.

    .. admonition:: Example

        >>> from chainerlite.utils.argument import parse_kwargs
        >>> def f(**kwargs):
        ...     return parse_kwargs(kwargs, ('train', True), ('scale', 1.0))
        >>> f(scale=2.0)
        (True, 2.0)

    """
    values = tuple(kwargs.pop(name, default) for name, default in name_and_values)
    if kwargs:
        check_unexpected_kwargs(kwargs, **unexpected)
        _raise_unexpected(kwargs, 1)
    return values


def assert_kwargs_empty(kwargs):
    """Raises TypeError, naming the caller, if ``kwargs`` is not empty."""
    if kwargs:
        _raise_unexpected(kwargs, 1)
