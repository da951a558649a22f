"""Fully-connected layer with simplified DropConnect."""

from chainerlite import utils
from chainerlite.functions.noise import simplified_dropconnect
from chainerlite.links.connection import linear


class SimplifiedDropconnect(linear.Linear):
    """Linear layer whose weights are dropped at random in training.

    Holds ``W`` and ``b`` as :class:`~chainerlite.links.Linear` does, and
    calls :func:`~chainerlite.functions.simplified_dropconnect`.

    Args:
        in_size (int or None): Dimension of the input vectors; inferred
            from the first input when ``None``.
        out_size (int): Dimension of the output vectors.
        ratio (float): Probability of dropping a weight.
        nobias (bool): If ``True``, the layer has no bias.
        initialW: Initializer of ``W``;
            :class:`~chainerlite.initializers.LeCunNormal` when ``None``.
        initial_bias: Initializer of ``b``; zeros when ``None``.

    Attributes:
        W (Parameter): Weight of shape ``(out_size, in_size)``.
        b (Parameter): Bias of shape ``(out_size,)``, or ``None``.
        ratio (float): Probability of dropping a weight.

    """

    def __init__(
        self,
        in_size,
        out_size,
        ratio=0.5,
        nobias=False,
        initialW=None,
        initial_bias=None,
    ):
        super().__init__(
            in_size,
            out_size,
            nobias=nobias,
            initialW=initialW,
            initial_bias=initial_bias,
        )
        self.ratio = ratio

    def forward(self, x, train=True, mask=None, use_batchwise_mask=True):
        """Applies the layer to ``x``.

        Args:
            x (Variable or numpy.ndarray or cupy.ndarray): Input batch.
            train (bool): Whether to drop weights.
            mask: Mask to use instead of drawing one (see
                :func:`~chainerlite.functions.simplified_dropconnect`).
            use_batchwise_mask (bool): Draw one mask per example.

        Returns:
            Variable: Output of shape ``(len(x), out_size)``.

        """
        if self.W.array is None:
            self._initialize_params(utils.size_of_shape(x.shape[1:]))
        return simplified_dropconnect.simplified_dropconnect(
            x, self.W, self.b, self.ratio, train, mask, use_batchwise_mask
        )
