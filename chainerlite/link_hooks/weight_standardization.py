"""Weight standardization of a link's weight (Qiao et al., 2019)."""

from chainerlite import functions as F
from chainerlite.link_hooks import _weight_hook


class WeightStandardization(_weight_hook.WeightHook):
    """Link hook that standardizes the weight of each output channel.

    During the forward method the weight is replaced by
    :math:`(W - \\mu) / \\sqrt{\\sigma^2 + \\epsilon}`, where the mean and
    the (biased) variance are taken, for each output channel, over all the
    other axes. The gradient flows to the weight through this expression.

    The hook is added to one link (``link.add_hook(hook)``); using it as a
    global hook raises NotImplementedError.

    Args:
        eps (float): Added to the variance.
        weight_name (str): The attribute of the weight.
        name (str): The name of the hook (``'WeightStandardization'`` by
            default).

    Raises:
        ValueError: When added to a link without the weight.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> from chainerlite.link_hooks import WeightStandardization
        >>> conv = L.Convolution2D(3, 8, ksize=3).add_hook(
        ...     WeightStandardization())
        >>> conv(np.ones((1, 3, 5, 5), np.float32)).shape
        (1, 8, 3, 3)

    """

    name = 'WeightStandardization'

    def __init__(self, eps=1e-5, weight_name='W', name=None):
        super(WeightStandardization, self).__init__(weight_name, name)
        self.eps = eps

    def compute_weight(self, link, weight):
        axes = tuple(i for i in range(weight.ndim) if i != self.axis)
        mean = F.mean(weight, axis=axes, keepdims=True)
        centered = weight - F.broadcast_to(mean, weight.shape)
        var = F.mean(centered * centered, axis=axes, keepdims=True)
        std = F.sqrt(var + self.eps)
        return centered / F.broadcast_to(std, weight.shape)
