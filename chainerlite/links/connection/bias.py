"""Broadcasted bias addition link."""

from chainerlite import link
from chainerlite import variable
from chainerlite.functions.math import bias
from chainerlite.utils import _chainer_errors


class Bias(link.Link):
    """Adds a bias, broadcast along the axes of the input.

    Calling it applies :func:`~chainerlite.functions.bias` with a learned
    bias ``b``, or, when the link has no parameter, with the bias given as
    the second argument.

    Args:
        axis (int): First axis of the input that the bias lines up with.
        shape (tuple of int): Shape of the learned bias (filled with
            zeros); ``None`` for no parameter.

    Attributes:
        b (Parameter): The learned bias (only when ``shape`` is given).

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> add = L.Bias(shape=(3,))
        >>> add(np.ones((2, 3, 4), np.float32)).shape
        (2, 3, 4)
        >>> L.Bias(axis=1)(np.zeros((2, 3)), np.arange(3.0)).array[1]
        array([0., 1., 2.])

    """

    def __init__(self, axis=1, shape=None):
        super().__init__()
        self.axis = axis
        if shape is not None:
            with self.init_scope():
                self.b = variable.Parameter(0, shape)

    def forward(self, *xs):
        """Adds the bias to ``xs[0]``.

        Args:
            *xs: The input, followed by the bias when the link has no
                parameter.

        Returns:
            Variable: The sum, of the shape of the input.

        Raises:
            ValueError: If the number of arguments does not fit the
                link. It is also an ``AssertionError``: Chainer 7.8.1
                fails on an unpacking outside debug mode and asserts the
                count in debug mode.

        """
        learned = 'b' in self._params
        if len(xs) != (1 if learned else 2):
            raise _chainer_errors.AssertedValueError(
                'Bias takes {} input(s) {} a learned bias, but {} were given'.format(
                    1 if learned else 2, 'with' if learned else 'without', len(xs)
                )
            )
        y = self.b if learned else xs[1]
        return bias.bias(xs[0], y, self.axis)
