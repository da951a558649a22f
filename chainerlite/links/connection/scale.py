"""Broadcasted elementwise product link, with an optional bias."""

from chainerlite import link
from chainerlite import variable
from chainerlite.functions.math import scale
from chainerlite.links.connection import bias
from chainerlite.utils import _chainer_errors


class Scale(link.Chain):
    """Multiplies by a scale broadcast along the axes of the input.

    Calling it applies :func:`~chainerlite.functions.scale` with a learned
    scale ``W``, or, when ``W_shape`` is ``None``, with the scale given as
    the second argument; then it adds a learned bias if ``bias_term``.

    Args:
        axis (int): First axis of the input that the scale lines up with.
        W_shape (tuple of int): Shape of the learned scale (filled with
            ones); ``None`` for no learned scale.
        bias_term (bool): Whether to add a learned bias after scaling.
        bias_shape (tuple of int): Shape of the bias; needed only when
            ``bias_term`` is set and ``W_shape`` is ``None`` (otherwise the
            bias has the shape of ``W``).

    Attributes:
        W (Parameter): The learned scale (only when ``W_shape`` is given).
        bias (~chainerlite.links.Bias): The bias child (only when
            ``bias_term``).

    Raises:
        ValueError: If ``bias_term`` is set without any shape for the bias.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> s = L.Scale(W_shape=(3,), bias_term=True)
        >>> [name for name, _ in s.namedparams()]
        ['/W', '/bias/b']
        >>> s(np.ones((2, 3), np.float32)).array
        array([[1., 1., 1.],
               [1., 1., 1.]], dtype=float32)

    """

    def __init__(self, axis=1, W_shape=None, bias_term=False, bias_shape=None):
        super().__init__()
        self.axis = axis
        with self.init_scope():
            if W_shape is not None:
                self.W = variable.Parameter(1, W_shape)
            if bias_term:
                if W_shape is not None:
                    bias_shape = W_shape
                elif bias_shape is None:
                    raise ValueError(
                        'bias_shape should be given if W is not '
                        'learnt parameter and bias_term is True.'
                    )
                self.bias = bias.Bias(axis, bias_shape)

    def forward(self, *xs):
        """Scales ``xs[0]`` (and adds the bias).

        Args:
            *xs: The input, followed by the scale when the link has no
                learned scale.

        Returns:
            Variable: The result, of the shape of the input.

        Raises:
            ValueError: If the number of arguments does not fit the
                link. It is also an ``AssertionError``: Chainer 7.8.1
                fails on an unpacking outside debug mode and asserts the
                count in debug mode.

        """
        learned = 'W' in self._params
        if len(xs) != (1 if learned else 2):
            raise _chainer_errors.AssertedValueError(
                'Scale takes {} input(s) {} a learned scale, but {} were given'.format(
                    1 if learned else 2, 'with' if learned else 'without', len(xs)
                )
            )
        y = self.W if learned else xs[1]
        z = scale.scale(xs[0], y, self.axis)
        if 'bias' in self._children:
            z = self.bias(z)
        return z
