"""Exceptions that are both chainerlite's type and Chainer 7.8.1's.

Where chainerlite checks an argument and raises ``ValueError`` naming the
function, Chainer 7.8.1 often fails later in its own code with another
builtin type (an ``assert``, an arithmetic on ``None``). These classes are
both, so that the message stays chainerlite's and code catching Chainer's
type still catches it.
"""


class AssertedValueError(ValueError, AssertionError):
    """A bad argument that Chainer 7.8.1 asserts against."""


class TypedValueError(ValueError, TypeError):
    """A bad argument on which Chainer 7.8.1 fails with a ``TypeError``."""


class AttributeTypeError(TypeError, AttributeError):
    """An object without a method that Chainer 7.8.1 calls on it (so an
    ``AttributeError`` there)."""


class IndexValueError(ValueError, IndexError):
    """An index out of range where Chainer 7.8.1 indexes with it (an
    ``IndexError`` there)."""
