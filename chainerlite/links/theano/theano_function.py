"""A link made from Theano variables: not available.

See :mod:`chainerlite.functions.theano.theano_function`.
"""

from chainerlite import link
from chainerlite.functions.theano import theano_function


class TheanoFunction(link.Link):
    """The link that would compile Theano ``inputs`` and ``outputs``
    (Chainer's ``L.TheanoFunction``).

    Raises:
        RuntimeError: Always: Theano does not run with the NumPy versions
            chainerlite supports (the message is Chainer's for a missing
            Theano when it is not installed).
    """

    def __init__(self, inputs, outputs):
        raise theano_function._unavailable()

    def forward(self, *args):
        """Would run the compiled Theano function; raises RuntimeError as
        the constructor does (a subclass that skips the constructor reaches
        it)."""
        raise theano_function._unavailable()
