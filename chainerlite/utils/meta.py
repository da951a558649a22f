"""Declaring methods that subclasses must not override (``utils.final``)."""

import warnings


def final(*args, **kwargs):
    """Marks a method as final: a subclass that overrides it is refused.

    Usable bare (``@final``) or with an argument (``@final(action=...)``).
    It takes effect in classes whose base comes from :func:`enable_final`.

    Args:
        action (type): What happens when a subclass overrides the method:
            an exception class (raised when the subclass is defined) or a
            warning class (warned). :class:`TypeError` by default.

    """
    action = kwargs.pop('action', TypeError)
    if kwargs:
        raise TypeError(
            'final() got unexpected keyword arguments: {}'.format(sorted(kwargs))
        )
    if not (isinstance(action, type) and issubclass(action, (Exception, Warning))):
        raise TypeError(
            'final(): action must be an exception or warning class, got {!r}'.format(
                action
            )
        )

    def mark(method):
        method.__final_action__ = action
        return method

    if len(args) == 1 and callable(args[0]):
        return mark(args[0])
    if args:
        raise TypeError('final() takes no positional arguments but a method')
    return mark


def _check_overrides(cls):
    for base in cls.__mro__[1:]:
        for name, value in vars(base).items():
            action = getattr(value, '__final_action__', None)
            if action is None or name not in vars(cls):
                continue
            if vars(cls)[name] is value:
                continue
            # Chainer's texts: a warning for overriding, an error for final
            if issubclass(action, Warning):
                warnings.warn(
                    'Overriding method {!r}.'.format(name), action, stacklevel=3
                )
            else:
                raise action('method {!r} is final.'.format(name))


def enable_final(base=(), meta_base=()):
    """Returns a base class whose subclasses honour :func:`final`.

    Args:
        base (type or tuple of type): Base classes of the returned class.
        meta_base (type or tuple of type): Base metaclasses (give the
            metaclasses of ``base`` here to avoid a metaclass conflict).

    Returns:
        type: A class to inherit from.

    """
    if not isinstance(base, (list, tuple)):
        base = (base,)
    if not isinstance(meta_base, (list, tuple)):
        meta_base = (meta_base,)
    checking = type('base_metaclass', (_FinalChecking,) + tuple(meta_base), {})
    return _stand_in(checking, tuple(base))


class _FinalChecking(type):
    # the metaclass of classes deriving from enable_final()'s: each new
    # class is checked against its bases' final methods
    def __init__(cls, name, bases, namespace, **kwargs):
        super().__init__(name, bases, namespace, **kwargs)
        _check_overrides(cls)


def _stand_in(meta, bases):
    """A class that stands in for ``bases`` under the metaclass ``meta``:
    a class statement deriving from it makes its class with ``meta`` from
    ``bases`` (the stand-in is not among its bases), as Chainer's
    enable_final returns through six."""

    class metaclass(type):
        def __new__(cls, name, _stand_in_bases, namespace, **kwargs):
            return meta(name, bases, namespace, **kwargs)

        @classmethod
        def __prepare__(cls, name, _stand_in_bases, **kwargs):
            return meta.__prepare__(name, bases, **kwargs)

    return type.__new__(metaclass, 'temporary_class', (), {})
