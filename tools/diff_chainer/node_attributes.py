"""The attributes a function's node keeps that code walking a graph reads.

Chainer's nodes keep their arguments and some results of their forward as
plain instance attributes (``node.outh``, ``node.multiplier``, ...), which
exporters, converters and hooks read. The harness lists those of Chainer's
node that hold plain data and compares their values on chainerlite's node,
where a property may stand in for the attribute. Nodes of different classes
(a function that Chainer builds from other functions and chainerlite
computes in one node, or the reverse) are not compared.
"""

import numbers

import numpy

# what every node has, compared elsewhere or not data of the call
_ENGINE = frozenset({'inputs', 'outputs', 'rank', 'stack', 'lazy_grad_sum'})
# Chainer's workspace of one implementation (iDeep, cuDNN) or intermediate
# results it keeps for its backward; chainerlite keeps its own
_WORKSPACE = frozenset(
    {
        'indexes',
        'dummy_gamma',
        'forward_data',
        'covariance',
        'y_centered',
        'z_centered',
        'wx',
        'expander',
    }
)
MISSING = '<missing>'


def _plain(value):
    if isinstance(value, numpy.generic):
        return False  # a 0-d result of the forward, as an array is
    if value is None or isinstance(value, (bool, str, numbers.Number)):
        return True
    if isinstance(value, (tuple, list)):
        return all(_plain(v) for v in value)
    return False


def _canonical(value):
    if isinstance(value, (tuple, list)):
        return [_canonical(v) for v in value]
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return round(float(value), 9)
    return value


def values(node):
    """``{name: value}`` of the public instance attributes of ``node`` that
    hold plain data (None, bools, Python numbers, strings and sequences of
    them)."""
    items = getattr(node, '__dict__', {}).items()
    return {
        k: _canonical(v)
        for k, v in sorted(items)
        if not k.startswith('_') and k not in _ENGINE | _WORKSPACE and _plain(v)
    }


class Comparison:
    """One case's comparison: Chainer's node runs first and gives the names
    and values; chainerlite's node is read under the same names."""

    def __init__(self):
        self.chainer = None  # (class name, values) of Chainer's node

    def __call__(self, lib, node):
        if lib.__name__ == 'chainer':
            self.chainer = (type(node).__name__, values(node))
            return self.chainer[1]
        name, theirs = self.chainer or (None, {})
        if type(node).__name__ != name:
            return theirs  # another class: not compared
        ours = {}
        for attr in theirs:
            value = getattr(node, attr, MISSING)
            ours[attr] = _canonical(value) if _plain(value) else MISSING
        return ours
