"""Calling compiled Theano functions from a graph: not available.

Chainer 7.8.1 wraps Theano functions in a node. Theano's last release does
not run with the NumPy versions chainerlite supports, so here the wrapper
raises :class:`RuntimeError` when it is made, with the message Chainer gives
when Theano is missing (see the list of differences in the docs).
"""

from chainerlite import function


def _unavailable():
    try:
        import theano  # noqa: F401
    except ImportError:
        return RuntimeError(
            'theano is not installed on your environment.\n'
            'Please install theano to activate theano function.\n\n'
            '  $ pip install theano'
        )
    return RuntimeError(
        'chainerlite does not wrap Theano functions: Theano does not run with '
        'the NumPy versions chainerlite supports.'
    )


class TheanoFunction(function.Function):
    """The node that would run compiled Theano ``forward_func`` and
    ``backward_func``.

    Raises:
        RuntimeError: Always (see the module's note).
    """

    def __init__(self, forward_func, backward_func):
        raise _unavailable()


def theano_function(forward_func, backward_func, *inputs):
    """Would apply compiled Theano functions to ``inputs``.

    Raises:
        RuntimeError: Always (see the module's note).
    """
    return TheanoFunction(forward_func, backward_func)(*inputs)
