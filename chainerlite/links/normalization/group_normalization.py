"""Group normalization layer."""

import chainerlite
from chainerlite import link
from chainerlite import variable
from chainerlite.functions.normalization import group_normalization
from chainerlite.links.normalization import batch_normalization as bn_link


class GroupNormalization(link.Link):
    """Group normalization layer (Wu and He, 2018).

    It holds the per-channel scale ``gamma`` and shift ``beta`` and applies
    :func:`~chainerlite.functions.group_normalization`. The parameters take
    the dtype of ``chainerlite.config.dtype``, float32 under
    :data:`~chainerlite.mixed16` (the data then being float16).

    Args:
        groups (int): Number of channel groups; it must divide the
            channels of the inputs.
        size (int or None): Number of channels; when ``None``, the length
            of an array ``initial_gamma``, else inferred from the first
            input.
        eps (float): Added to the variances.
        initial_gamma: Initializer of ``gamma`` (ones when ``None``).
        initial_beta: Initializer of ``beta`` (zeros when ``None``).

    Attributes:
        gamma (Parameter): Scale of shape ``(size,)``.
        beta (Parameter): Shift of shape ``(size,)``.

    """

    def __init__(
        self, groups, size=None, eps=1e-5, initial_gamma=None, initial_beta=None
    ):
        super().__init__()
        self.groups = groups
        self.eps = eps
        dtype = chainerlite.get_dtype(map_mixed16='float32')
        with self.init_scope():
            self.gamma = variable.Parameter(
                bn_link._initializer(initial_gamma, 1, dtype)
            )
            self.beta = variable.Parameter(bn_link._initializer(initial_beta, 0, dtype))
        if size is None and hasattr(initial_gamma, 'shape'):
            size = initial_gamma.shape[0]
        if size is not None:
            self._initialize_params(size)

    def _initialize_params(self, size):
        self._initialize_param(self.gamma, (size,))
        self._initialize_param(self.beta, (size,))

    def forward(self, x):
        """Normalizes ``x`` of shape ``(n, size, ...)``.

        Raises:
            ValueError: If ``x`` has fewer than two axes or ``groups`` does
                not divide its channels.
            TypeError: If ``groups`` is not an int.

        """
        if self.gamma.array is None:
            if x.ndim < 2:
                raise ValueError(
                    'GroupNormalization: the input needs a batch and a '
                    'channel axis, got shape {}'.format(x.shape)
                )
            self._initialize_params(x.shape[1])
        return group_normalization.group_normalization(
            x, self.groups, self.gamma, self.beta, self.eps
        )
