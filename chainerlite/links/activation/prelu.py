"""Parametric ReLU link."""

from chainerlite import link
from chainerlite import variable
from chainerlite.functions.activation import prelu


class PReLU(link.Link):
    """Parametric ReLU layer: holds the slope ``W`` of the negative part.

    Calling it applies :func:`~chainerlite.functions.prelu`: ``x`` where
    ``x >= 0`` and ``W * x`` elsewhere, ``W`` broadcast along the axes of
    ``x`` from axis 1.

    Args:
        shape (tuple of int): Shape of ``W``; ``()`` shares one slope.
        init (float): Initial value of the slope.

    Attributes:
        W (Parameter): The slope.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> L.PReLU()(np.array([[-2.0, 3.0]], np.float32)).array
        array([[-0.5,  3. ]], dtype=float32)

    """

    def __init__(self, shape=(), init=0.25):
        super().__init__()
        with self.init_scope():
            self.W = variable.Parameter(init, shape)

    def forward(self, x):
        """Applies the parametric ReLU to ``x``.

        Args:
            x (Variable or numpy.ndarray or cupy.ndarray): Input whose axes
                from 1 on start with the shape of ``W``.

        Returns:
            Variable: Output of the shape of ``x``.

        """
        return prelu.prelu(x, self.W)
