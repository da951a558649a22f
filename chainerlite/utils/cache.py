"""Cached properties that respect the backprop mode."""

import functools

from chainerlite import _core


class cached_property(object):
    """Decorator: a property computed once per object and backprop mode.

    The value is computed on first access and kept on the object; a value
    computed with backprop enabled (a Variable with a graph) and one
    computed under :func:`~chainerlite.no_backprop_mode` are kept apart, so
    that neither is handed out in the other mode.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite as chainer
        >>> from chainerlite.utils.cache import cached_property
        >>> class Box(object):
        ...     @cached_property
        ...     def value(self):
        ...         print('computing')
        ...         return chainer.Variable(np.ones(2))
        >>> box = Box()
        >>> box.value is box.value
        computing
        True

    """

    def __init__(self, func):
        functools.update_wrapper(self, func)
        self._func = func
        self._key = '_cached_property_' + func.__name__

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        cache = obj.__dict__.get(self._key)
        if cache is None:
            cache = obj.__dict__[self._key] = {}
        mode = bool(_core.config.enable_backprop)
        if mode not in cache:
            cache[mode] = self._func(obj)
        return cache[mode]

    def __set__(self, obj, value):
        # read-only, as Chainer's
        raise AttributeError(
            "attribute '{}' of {} is readonly".format(self.__name__, type(obj))
        )
