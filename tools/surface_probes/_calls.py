"""Calls whose outcome, value or exception, is itself a probe's result,
and the small inputs and classes the probes of the node layer build."""

import numpy

from tools.surface_probes import _values


def counting(*shape, dtype=numpy.float32):
    """1, 2, 3, ... in ``shape``."""
    return (numpy.arange(numpy.prod(shape)).reshape(shape) + 1).astype(dtype)


def subclass(base, name, forward, backward=None, **attrs):
    """A subclass of ``base`` (FunctionNode, Function) named ``name`` with
    the given forward, backward and other attributes."""
    body = dict(attrs, forward=forward)
    if backward is not None:
        body['backward'] = backward
    return type(name, (base,), body)


def attempt(fn):
    """``['ok', summary]`` of ``fn()``, or ``['raise', name, mro]`` of what
    it raised (compared by the exception's type, see ``__main__.agree``)."""
    try:
        return ['ok', _values.summary(fn())]
    except Exception as e:  # noqa: BLE001 - the exception is the result
        return ['raise', type(e).__name__, [c.__name__ for c in type(e).__mro__]]


def first_line(fn):
    """The first line of the message of what ``fn()`` raised (None when it
    returned): the text that a user reads first, where chainerlite's names
    read as Chainer's."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the message is the result
        text = str(e).split('\n', 1)[0]
        return text.replace('chainerlite._core.node.', 'chainer.variable.')
    return None
