"""Fully-connected maxout layer."""

import numpy

from chainerlite import initializer
from chainerlite import initializers
from chainerlite import link
from chainerlite.backends import cuda
from chainerlite.functions.activation import maxout
from chainerlite.links.connection import linear


class _Reshaped(initializer.Initializer):
    # Fills a linear parameter through a view of the maxout shape, so that
    # the user's initializer sees (out_size, pool_size[, in_size]).

    def __init__(self, init, shape):
        super().__init__(getattr(init, 'dtype', None))
        self.init = init
        self.shape = shape

    def __call__(self, array):
        self.init(array.reshape(self.shape))


def _linear_initializer(init, shape, name):
    if isinstance(init, (numpy.ndarray, cuda.ndarray)):
        if init.ndim != len(shape):
            raise ValueError(
                'Maxout: {} must be an array of {} dimensions {}, got shape {}'.format(
                    name, len(shape), shape, init.shape
                )
            )
        return init.reshape(-1, *init.shape[2:])
    if init is None or numpy.isscalar(init):
        return init
    return _Reshaped(initializers._get_initializer(init), shape)


class Maxout(link.Chain):
    """Fully-connected maxout layer (Goodfellow et al., 2013).

    Each of the ``out_size`` outputs is the maximum of ``pool_size``
    linear units: ``y_i = max_j (W_ij x + b_ij)``. The units are held by
    the child link ``linear`` (a :class:`~chainerlite.links.Linear` of
    ``out_size * pool_size`` outputs).

    Args:
        in_size (int): Dimension of the input vectors.
        out_size (int): Dimension of the output vectors.
        pool_size (int): Number of linear units per output.
        initialW: Initializer of the weight, seen with shape ``(out_size,
            pool_size, in_size)``; an array must have that shape.
        initial_bias: Initializer of the bias, seen with shape
            ``(out_size, pool_size)``; ``None`` for no bias.

    Raises:
        ValueError: If an array initializer has the wrong number of axes.

    """

    def __init__(self, in_size, out_size, pool_size, initialW=None, initial_bias=0):
        super().__init__()
        self.out_size = out_size
        self.pool_size = pool_size
        W = _linear_initializer(initialW, (out_size, pool_size, in_size), 'initialW')
        b = _linear_initializer(initial_bias, (out_size, pool_size), 'initial_bias')
        with self.init_scope():
            self.linear = linear.Linear(
                in_size,
                out_size * pool_size,
                initialW=W,
                nobias=initial_bias is None,
                initial_bias=b,
            )

    def forward(self, x):
        """Applies the layer to ``x`` (of shape ``(n, ...)``).

        Returns:
            Variable: Output of shape ``(n, out_size)``.

        """
        return maxout.maxout(self.linear(x), self.pool_size)
