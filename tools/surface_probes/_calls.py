"""What the probes of the node layer share: their small inputs, the
classes they derive, and the message of what a call raised (``attempt``,
its outcome, is ``_values.attempt``)."""

import numpy


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
