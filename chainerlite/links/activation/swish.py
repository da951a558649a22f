"""Swish link: the activation with a learned ``beta``."""

from chainerlite import link
from chainerlite import variable
from chainerlite.functions.activation import swish


class Swish(link.Link):
    """Swish layer: holds the parameter ``beta`` of the activation.

    Calling it applies :func:`~chainerlite.functions.swish`,
    ``x * sigmoid(beta * x)``, ``beta`` broadcast along the axes of ``x``
    from axis 1.

    Args:
        beta_shape (tuple of int or None): Shape of ``beta``; ``()`` shares
            one value. ``None`` defers the creation of ``beta`` to the
            first input ``x``, whose ``x.shape[1:]`` it takes.
        beta_init (float): Initial value of every element of ``beta``.

    Attributes:
        beta (Parameter): The parameter of the activation.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> act = L.Swish(None)
        >>> act.beta.array is None
        True
        >>> act(np.zeros((2, 3, 4), np.float32)).shape
        (2, 3, 4)
        >>> act.beta.shape
        (3, 4)

    """

    def __init__(self, beta_shape, beta_init=1.0):
        super().__init__()
        with self.init_scope():
            self.beta = variable.Parameter(beta_init, beta_shape)

    def forward(self, x):
        """Applies the activation to ``x``.

        Args:
            x (Variable or numpy.ndarray or cupy.ndarray): Input whose axes
                from 1 on start with the shape of ``beta``.

        Returns:
            Variable: Output of the shape and dtype of ``x``.

        """
        if self.beta.array is None:
            self._initialize_param(self.beta, x.shape[1:])
        return swish.swish(x, self.beta)
