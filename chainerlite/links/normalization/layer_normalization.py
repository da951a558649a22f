"""Layer normalization link."""

from chainerlite import initializers
from chainerlite import link
from chainerlite import utils
from chainerlite import variable
from chainerlite.functions.normalization import layer_normalization


class LayerNormalization(link.Link):
    """Layer normalization layer: holds a scale ``gamma`` and shift ``beta``.

    Calling it applies :func:`~chainerlite.functions.layer_normalization`,
    which normalizes each row of a 2-D input by its own mean and variance.

    Args:
        size (int or None): Number of units of a row; ``None`` infers it
            from the first input.
        eps (float): Added to the variance for numerical stability.
        initial_gamma: Initializer of ``gamma`` (see
            :func:`~chainerlite.initializers._get_initializer`); ones when
            ``None``.
        initial_beta: Initializer of ``beta``; zeros when ``None``.

    Attributes:
        gamma (Parameter): Scale of shape ``(size,)``.
        beta (Parameter): Shift of shape ``(size,)``.
        eps (float): The ``eps`` given.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> ln = L.LayerNormalization()
        >>> y = ln(np.array([[1, 2, 3], [0, 0, 3]], np.float32))
        >>> ln.gamma.shape, y.array.mean(axis=1).round(5)
        ((3,), array([0., 0.], dtype=float32))

    """

    def __init__(self, size=None, eps=1e-6, initial_gamma=None, initial_beta=None):
        super().__init__()
        self.eps = eps
        with self.init_scope():
            self.gamma = variable.Parameter(
                initializers._get_initializer(
                    1 if initial_gamma is None else initial_gamma
                )
            )
            self.beta = variable.Parameter(
                initializers._get_initializer(
                    0 if initial_beta is None else initial_beta
                )
            )
        if size is not None:
            self._initialize_params(size)

    def _initialize_params(self, size):
        self._initialize_param(self.gamma, size)
        self._initialize_param(self.beta, size)

    def forward(self, x):
        """Normalizes each row of ``x``, then scales and shifts it.

        Args:
            x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
                ``(batch, size)``.

        Returns:
            Variable: Output of the shape of ``x``.

        """
        if self.gamma.array is None:
            self._initialize_params(utils.size_of_shape(x.shape[1:]))
        return layer_normalization.layer_normalization(
            x, self.gamma, self.beta, self.eps
        )
