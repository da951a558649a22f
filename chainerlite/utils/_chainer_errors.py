"""Exceptions that are both chainerlite's type and Chainer 7.8.1's.

Where chainerlite checks an argument and raises ``ValueError`` naming the
function, Chainer 7.8.1 often fails later in its own code with another
builtin type (an ``assert``, an arithmetic on ``None``). These classes are
both, so that the message stays chainerlite's and code catching Chainer's
type still catches it.
"""

import pickle

import numpy

# Defined in the engine, which raises it too (the engine imports nothing
# from chainerlite); listed here with the others.
from chainerlite._core.backprop import AttributeTypeError  # noqa: F401


class AssertedValueError(ValueError, AssertionError):
    """A bad argument that Chainer 7.8.1 asserts against."""


class TypedValueError(ValueError, TypeError):
    """A bad argument on which Chainer 7.8.1 fails with a ``TypeError``."""


class AssertedTypeError(TypeError, AssertionError):
    """An argument of the wrong type that Chainer 7.8.1 asserts against
    (``assert isinstance(...)``)."""


class IndexValueError(ValueError, IndexError):
    """An index out of range where Chainer 7.8.1 indexes with it (an
    ``IndexError`` there)."""


class KeyValueError(KeyError, ValueError):
    """A value missing from an HDF5 file. Chainer 7.8.1's HDF5Deserializer
    raises ValueError for a missing group (a whole link) and h5py's
    KeyError for a missing dataset; this is both. Also an unknown unit of
    a TimerHook's report, which Chainer looks up in its table."""


class UnregisteredKeyError(KeyError, NotImplementedError):
    """No implementation registered for a pair of types (``kl_divergence``
    of two distributions). Chainer 7.8.1 looks the pair up in a dict and
    raises its KeyError; this is also the NotImplementedError that says
    what is missing."""

    def __str__(self):
        # the message, not KeyError's quoted repr of it
        return str(self.args[0]) if self.args else ''


class LengthError(AssertedValueError):
    """A sequence of window arguments of the wrong length. Chainer 7.8.1
    fails on one with an AssertionError in its N-d functions and a
    ValueError (an unpacking) in its 2-D ones; this is both."""


class OverflowValueError(ValueError, OverflowError):
    """An infinite value where an int is needed (a ROI corner). Chainer
    7.8.1 converts it with ``int`` (an OverflowError); this is also the
    ValueError of chainerlite's check."""


class ZeroError(ValueError, ZeroDivisionError):
    """A zero where a positive int is needed (``groups``). Chainer 7.8.1
    divides by it (a ZeroDivisionError) where chainerlite checks it (a
    ValueError); this is both."""


class OutputSizeError(ValueError, RuntimeError, AssertionError):
    """A convolution whose output would have no positions: a bad argument
    (ValueError). Chainer 7.8.1 asserts that the output sizes are positive
    (an AssertionError) and its cuDNN path raises a RuntimeError; this is
    all three."""


class NegativeStrideError(ValueError, RuntimeError, AssertionError):
    """A negative stride. Chainer 7.8.1 computes output lengths that are
    not positive from it and then asserts (an AssertionError; a
    RuntimeError in its 2-D deconvolution); this is both, and the
    ValueError of chainerlite's check."""


class ZeroStrideError(ZeroError, AssertionError):
    """A zero stride. Chainer 7.8.1's convolutions divide by it (a
    ZeroDivisionError); its deconvolutions compute an output length from
    it that is not positive where the padding is large enough, and assert
    (an AssertionError). This is both, and the ValueError of
    chainerlite's check."""


class LinAlgTypeError(numpy.linalg.LinAlgError, TypeError):
    """A float16 matrix that a factorisation fails on (not positive
    definite): chainerlite's ``LinAlgError``. Chainer 7.8.1 refuses any
    float16 matrix with NumPy's ``TypeError`` before it factors; this is
    both."""


class DtypeRuntimeError(TypeError, RuntimeError):
    """An array of a dtype a helper cannot work with (integers for
    ``gradient_check.numerical_grad``): a TypeError, and the RuntimeError
    Chainer 7.8.1 raises there."""


class NotAnArchiveError(ValueError, pickle.UnpicklingError):
    """A file given to ``load_npz`` that is neither an npz archive nor an
    ``.npy`` array: a ValueError (chainerlite never unpickles a file), and
    the UnpicklingError of Chainer 7.8.1, which tries such a file as a
    pickle."""
