"""Mutation operators on the gradients a node's backward returns.

Each operator takes the tuple of input gradients returned by ``backward``
(Variables) or by a grad node's ``forward`` (arrays), possibly with ``None`` entries,
and returns a mutated tuple, or None when it cannot apply. ``None`` as a
gradient means a zero gradient, so replacing one by ``None`` is a real change.
"""

import numpy

from chainerlite import backend
from chainerlite import variable

SCALE = 1.1


def _present(grads):
    return [i for i, g in enumerate(grads) if g is not None]


def _replace(grads, i, g):
    out = list(grads)
    out[i] = g
    return tuple(out)


def scale(grads):
    """Multiplies the first non-None gradient by ``SCALE``."""
    present = _present(grads)
    if not present:
        return None
    i = present[0]
    return _replace(grads, i, grads[i] * SCALE)


def drop(grads):
    """Zeroes the last non-None gradient.

    With two or more gradients it becomes None; a single one is multiplied
    by 0 instead, so the input still receives a (zero) gradient.
    """
    present = _present(grads)
    if not present:
        return None
    i = present[-1]
    return _replace(grads, i, None if len(grads) > 1 else grads[i] * 0)


def swap(grads):
    """Swaps the first two non-None gradients of equal shape and dtype."""
    present = _present(grads)
    for k, i in enumerate(present):
        for j in present[k + 1 :]:
            a, b = grads[i], grads[j]
            if a.shape == b.shape and a.dtype == b.dtype:
                out = list(grads)
                out[i], out[j] = b, a
                return tuple(out)
    return None


OPERATORS = {'scale': scale, 'drop': drop, 'swap': swap}


def _data(g):
    return g.array if isinstance(g, variable.Variable) else g


def _same(a, b):
    a, b = _data(a), _data(b)
    if a is None or b is None:
        other = b if a is None else a
        return other is None or not backend.get_array_module(other).any(other)
    xp = backend.get_array_module(a)
    return numpy.shape(a) == numpy.shape(b) and bool(xp.array_equal(a, b))


def changes(old, new):
    """Whether the gradient tuple ``new`` differs in value from ``old``."""
    return any(not _same(a, b) for a, b in zip(old, new))
